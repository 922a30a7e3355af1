// The README is the operator's manual: its configuration table must list every setting the room
// reads, with the default the code uses, and every dependency must say why it is there.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { settingsTable } from '../../src/core/config.js';
import { repoRoot } from '../../lib/paths.js';

const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

/** Rows of the table whose header starts with `| key | default |`: key -> default cell. */
function configRows(): Map<string, string> {
  const lines = readme.split('\n');
  const start = lines.findIndex((l) => /^\|\s*key\s*\|\s*default\s*\|/.test(l));
  const rows = new Map<string, string>();
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    const [, key, def] = line.split('|').map((c) => c.trim());
    rows.set(key!.replace(/`/g, ''), def!.replace(/`/g, ''));
  }
  return rows;
}

describe('README.md', () => {
  it('documents every setting with the default the code uses, and nothing else', () => {
    const rows = configRows();
    expect([...rows.keys()].sort()).toEqual(settingsTable.map((s) => s.key).sort());
    for (const s of settingsTable) expect(rows.get(s.key), s.key).toBe(s.default === '' ? '(none)' : s.default);
  });

  it('says why each dependency is there', () => {
    const section = readme.slice(readme.indexOf('## Dependencies'));
    for (const name of [...Object.keys(pkg.dependencies), ...Object.keys(pkg.devDependencies)]) {
      expect(section, name).toContain(`\`${name}\``);
    }
  });

  it('gives the three quick-start commands', () => {
    for (const command of ['npm ci', 'npm start', 'npm test']) expect(readme).toContain(command);
  });
});
