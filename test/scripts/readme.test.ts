// The README is a newcomer's first screen and the docs are the operator's manual: the configuration
// table (docs/configuration.md) must list every setting the room reads, with the default the code
// uses; every dependency must say why it is there; the quick start and the map of the repository must
// stay on the README's first screen; the Node.js it asks for must be one every locked package accepts;
// it must say where the settings and the log go, with the log's size; every relative link in the
// Markdown must lead somewhere; and every page of docs/ the code cites (a comment, a --help text, an
// error message) must exist, with the heading it names.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { settingsTable } from '../../src/core/settings/index.js';
import { repoRoot } from '../../lib/paths.js';
import { FakeRoom, KID } from '../support/fakes.js';
import { roomCookies } from '../../lib/mint.js';

const read = (file: string): string => readFileSync(join(repoRoot, file), 'utf8');
const readme = read('README.md');
const configuration = read('docs/configuration.md');
const pkg = JSON.parse(read('package.json')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

/** Rows of the table whose header starts with `| key | default |`: key -> default cell. */
function configRows(markdown: string): Map<string, string> {
  const lines = markdown.split('\n');
  const start = lines.findIndex((l) => /^\|\s*key\s*\|\s*default\s*\|/.test(l));
  const rows = new Map<string, string>();
  if (start < 0) return rows;
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    const [, key, def] = line.split('|').map((c) => c.trim());
    rows.set(key!.replace(/`/g, ''), def!.replace(/`/g, ''));
  }
  return rows;
}

/** The first screen: what a laptop shows of the rendered README before any scrolling, give or take. */
const FIRST_SCREEN_LINES = 60;

/** Markdown files whose links are checked: the README, the changelog, docs/ (all of it) and each folder's README. */
function markdownFiles(): string[] {
  const files = ['README.md', 'CHANGELOG.md'];
  const walk = (dir: string): void => {
    for (const name of readdirSync(join(repoRoot, dir))) {
      const path = join(dir, name);
      if (statSync(join(repoRoot, path)).isDirectory()) walk(path);
      else if (name.endsWith('.md')) files.push(path);
    }
  };
  walk('docs');
  for (const dir of readdirSync(repoRoot)) {
    if (dir === 'node_modules' || dir.startsWith('.')) continue;
    if (existsSync(join(repoRoot, dir, 'README.md'))) files.push(join(dir, 'README.md'));
  }
  return files;
}

/** Text outside code: fenced and indented code blocks and inline code spans hold no links. */
function prose(markdown: string): string {
  return markdown
    .replace(/^```[\s\S]*?^```/gm, '')
    .split('\n')
    .filter((line) => !/^( {4}|\t)/.test(line) || /^\s*([-*]|\d+\.)\s/.test(line))
    .join('\n')
    .replace(/`[^`\n]*`/g, '');
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const line of markdown.replace(/^```[\s\S]*?^```/gm, '').split('\n')) {
    const m = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!m) continue;
    const base = m[1]!
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** Relative links and images of one Markdown file: [text](target) with no scheme. */
function relativeLinks(markdown: string): string[] {
  const links: string[] = [];
  for (const m of prose(markdown).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
    const target = m[1]!;
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
    links.push(target);
  }
  return links;
}

describe('docs/configuration.md', () => {
  it('documents every setting with the default the code uses, and nothing else', () => {
    const rows = configRows(configuration);
    expect([...rows.keys()].sort()).toEqual(settingsTable.map((s) => s.key).sort());
    for (const s of settingsTable) expect(rows.get(s.key), s.key).toBe(s.default === '' ? '(none)' : s.default);
  });
});

/** The string members of `export type NAME = | 'a' | 'b' ...;` in src/core/types.ts. */
function unionMembers(name: string): string[] {
  const body = new RegExp(`export type ${name} =([^;]*);`).exec(read('src/core/types.ts'))?.[1] ?? '';
  return [...body.matchAll(/'([a-z_]+)'/g)].map((m) => m[1]!);
}

describe('docs/decisions.md', () => {
  const decisions = read('docs/decisions.md');
  /** First-column names of its table rows (a row may name several, comma-separated). */
  const rowNames = new Set(
    decisions
      .split('\n')
      .filter((l) => l.startsWith('| `'))
      .flatMap((l) => [...l.split('|')[1]!.matchAll(/`([a-z_]+)`/g)].map((m) => m[1]!)),
  );

  it.each(['Decision', 'Outcome', 'ReasonCode', 'PreviewReason'])('has a row for every %s the room logs', (name) => {
    const members = unionMembers(name);
    expect(members.length).toBeGreaterThan(3);
    for (const member of members) expect(rowNames.has(member), member).toBe(true);
  });

  it('has no row for a name the room does not log', () => {
    const known = new Set(['Decision', 'Outcome', 'ReasonCode', 'PreviewReason'].flatMap(unionMembers));
    expect([...rowNames].filter((name) => !known.has(name))).toEqual([]);
  });
});

describe('docs/troubleshooting.md', () => {
  const text = read('docs/troubleshooting.md');

  it('names only reason codes the room logs, and settings and commands that exist', () => {
    const reasons = new Set(unionMembers('ReasonCode'));
    const named = [...text.matchAll(/`reason` `([a-z_]+)`/g)].map((m) => m[1]!);
    expect(named.length).toBeGreaterThan(8);
    expect(named.filter((r) => !reasons.has(r))).toEqual([]);
    const settings = new Set(settingsTable.map((s) => s.key));
    const assigned = [...text.matchAll(/npm run tune -- (?:\[--room ID\] |--room ID )?([a-z_]+)=/g)].map((m) => m[1]!);
    expect(assigned.length).toBeGreaterThan(4);
    expect(assigned.filter((k) => !settings.has(k))).toEqual([]);
    const scripts = Object.keys((JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts);
    const run = [...text.matchAll(/npm run ([a-z:-]+)/g)].map((m) => m[1]!);
    expect(run.filter((r) => !scripts.includes(r))).toEqual([]);
  });
});

describe('README.md', () => {
  it('says why each dependency is there', () => {
    const at = readme.indexOf('## Dependencies');
    expect(at).toBeGreaterThan(-1);
    const section = readme.slice(at);
    for (const name of [...Object.keys(pkg.dependencies), ...Object.keys(pkg.devDependencies)]) {
      expect(section, name).toContain(`\`${name}\``);
    }
  });

  it('stays short: at most 150 lines, depth in docs/', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(151);
  });

  it('gives the three quick-start commands', () => {
    for (const command of ['npm ci', 'npm start', 'npm test']) expect(readme).toContain(command);
  });

  it('keeps the quick start and the map of the repository on its first screen', () => {
    const lines = readme.split('\n');
    const firstScreen = lines.slice(0, FIRST_SCREEN_LINES);
    const quickStart = firstScreen.findIndex((l) => /^## Quick start/.test(l));
    expect(quickStart, 'a "## Quick start" heading').toBeGreaterThan(-1);
    for (const command of ['npm ci', 'npm start', 'npm test']) {
      expect(
        firstScreen.some((l) => l.trimStart().startsWith(command)),
        command,
      ).toBe(true);
    }
    // The map: the first table after the quick start whose header names folders, ending on the first screen.
    const mapHeader = lines.findIndex((l, i) => i > quickStart && /^\|\s*folder\s*\|/.test(l));
    expect(mapHeader, 'a "| folder |" table').toBeGreaterThan(quickStart);
    let end = mapHeader;
    while (end + 1 < lines.length && lines[end + 1]!.startsWith('|')) end++;
    expect(end + 1, 'the last line of the map').toBeLessThanOrEqual(FIRST_SCREEN_LINES);
    expect(end - mapHeader - 1, 'folders in the map').toBeGreaterThanOrEqual(8);
  });
});

/** Version triple; missing or wildcard parts are 0 (a lower bound is all the checks below need). */
const triple = (v: string): number[] =>
  v
    .split('.')
    .slice(0, 3)
    .map((p) => (/^\d+$/.test(p) ? Number(p) : 0));
const compare = (a: number[], b: number[]): number => a.reduce((r, x, i) => r || x - (b[i] ?? 0), 0);

/** Whether `version` satisfies an npm `engines` range (||, spaces, >=, >, <=, <, =, ^, ~, x and *). */
function satisfies(version: string, range: string): boolean {
  const v = triple(version);
  return range.split('||').some((alternative) =>
    (
      alternative
        .trim()
        .replace(/([<>=^~]+)\s+/g, '$1')
        .match(/\S+/g) ?? ['*']
    ).every((comparator) => {
      const [, op = '', bound = ''] = /^([<>=^~]*)v?(.*)$/.exec(comparator)!;
      if (bound === '' || bound === '*' || bound === 'x') return true;
      const parts = bound.split('.').filter((p) => /^\d+$/.test(p)).length;
      const b = triple(bound);
      const c = compare(v, b);
      // The next version the range stops before: ^1.2.3 and 1.x -> 2; ~1.2.3 and 1.2.x -> 1.3; ^0.2 -> 0.3.
      const ceiling = (place: number): number[] => b.map((x, i) => (i < place ? x : i === place ? x + 1 : 0));
      const below = (place: number) => c >= 0 && compare(v, ceiling(place)) < 0;
      if (op === '>=') return c >= 0;
      if (op === '>') return c > 0;
      if (op === '<=') return c <= 0;
      if (op === '<') return c < 0;
      if (op === '^') return below(b[0]! > 0 || parts === 1 ? 0 : b[1]! > 0 || parts === 2 ? 1 : 2);
      if (op === '~') return below(parts === 1 ? 0 : 1);
      return parts === 3 ? c === 0 : below(parts - 1);
    }),
  );
}

describe('the Node.js the README asks for', () => {
  const asked = /Node\.js (\d+\.\d+) or later/.exec(readme)?.[1];
  const lock = JSON.parse(read('package-lock.json')) as {
    packages: Record<string, { engines?: { node?: string }; optional?: boolean; os?: string[] }>;
  };

  it('reads ranges as npm does', () => {
    expect(satisfies('20.19.0', '^22.17.0 || >=24.0.0')).toBe(false);
    expect(satisfies('20.19.0', '>= 10')).toBe(true);
    expect(satisfies('20.19.0', '6.* || 8.* || >= 10.*')).toBe(true);
    expect(satisfies('20.19.0', '18 || 20 || >=22')).toBe(true);
    expect(satisfies('20.19.0', '^20.19.0 || ^22.12.0 || >=23')).toBe(true);
    expect(satisfies('20.18.3', '^20.19.0 || >=22.12.0')).toBe(false);
    expect(satisfies('20.19.0', '^10 || ^12 || >=14')).toBe(true);
    expect(satisfies('20.19.0', '~20.18.0')).toBe(false);
    expect(satisfies('20.19.0', '*')).toBe(true);
  });

  it("is package.json's engines.node", () => {
    expect(asked, 'README: "Node.js X.Y or later"').toBeDefined();
    expect((pkg as { engines?: { node?: string } }).engines?.node).toBe(`>=${asked}`);
  });

  it('is accepted by every package npm ci installs, so it warns of no engine (EBADENGINE)', () => {
    const refused = Object.entries(lock.packages)
      .filter(
        ([name, entry]) =>
          name !== '' && entry.engines?.node !== undefined && !satisfies(`${asked}.0`, entry.engines.node),
      )
      .map(([name, entry]) => `${name.replace(/^.*node_modules\//, '')} wants Node ${entry.engines!.node}`);
    expect(refused).toEqual([]);
  });
});

describe('README.md: the local store and the log', () => {
  it('says where the settings live, that git leaves them alone, and how to go back to the demo settings', () => {
    for (const words of [
      '`local/config.json`',
      '`local/config.example.json`',
      'not tracked by git',
      '`rm local/config.json && npm run tune`',
    ]) {
      expect(readme, words).toContain(words);
    }
  });

  it('gives the size of the log line the demo settings print per request (within 10%)', async () => {
    const said = Number(/one JSON line of about (\d+) bytes per request/.exec(readme)?.[1]);
    expect(said, 'README: "one JSON line of about N bytes per request"').toBeGreaterThan(0);
    const { settings, ...store } = JSON.parse(read('local/config.example.json')) as Record<string, string>;
    const demo = JSON.parse(settings!) as Record<string, string>;
    const room = new FakeRoom({ settings: { ...demo, active_key: KID }, store });
    // As the local host prints them: `ENDPOINT :: {...}` and a newline; visitors come, then come back.
    const cookies = new Map<number, string>();
    for (let round = 0; round < 4; round++) {
      for (let v = 0; v < 50; v++) {
        const answer = await room.visit({
          path: `/products/${v % 7}`,
          ip: `198.51.100.${v}`,
          ...(cookies.has(v) ? { cookie: cookies.get(v)! } : {}),
        });
        // The demo's /products go through room shop, whose cookie is waiting_room_shop.
        const set = roomCookies(answer.response, 'shop')[0]?.split(';')[0];
        if (set !== undefined) cookies.set(v, set);
      }
      room.advance(Number(demo.wait_period_duration));
    }
    const sizes = room.logs.map((l) => Buffer.byteLength(`${l.endpoint} :: ${l.line}\n`));
    expect(sizes).toHaveLength(200);
    // They did come back: some were drawn and let through to the shop, some are still waiting.
    const outcomes = new Set(room.logs.map((l) => (JSON.parse(l.line) as { outcome: string }).outcome));
    expect([...outcomes].sort()).toEqual(['keepwaiting', 'origin', 'startwaiting']);
    const mean = sizes.reduce((a, b) => a + b, 0) / sizes.length;
    expect(Math.abs(mean - said) / said, `measured ${mean.toFixed(0)} bytes a line`).toBeLessThan(0.1);
  });
});

describe('Markdown links', () => {
  const files = markdownFiles();

  it('covers the README and docs/', () => {
    expect(files).toContain('README.md');
    expect(files).toContain(join('docs', 'configuration.md'));
  });

  it.each(files)('every relative link in %s leads to a file that exists, and to a heading in it', (file) => {
    const text = read(file);
    const broken: string[] = [];
    for (const link of relativeLinks(text)) {
      const [pathPart, anchor] = link.split('#') as [string, string | undefined];
      const target = pathPart === '' ? file : join(dirname(file), decodeURIComponent(pathPart));
      if (relative(repoRoot, join(repoRoot, target)).startsWith('..') || !existsSync(join(repoRoot, target))) {
        broken.push(`${link} (no ${target})`);
        continue;
      }
      if (anchor !== undefined && target.endsWith('.md') && !anchors(read(target)).has(anchor)) {
        broken.push(`${link} (no heading #${anchor} in ${target})`);
      }
    }
    expect(broken).toEqual([]);
  });
});

/** Source files that may cite docs/: the code, its tests and tools, and .gitignore; not what npm installs or a build makes. */
function sourceFiles(dir = ''): string[] {
  return readdirSync(join(repoRoot, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = dir === '' ? entry.name : `${dir}/${entry.name}`;
    if (entry.isDirectory())
      return ['node_modules', 'bin', 'build', 'docs'].includes(entry.name) || entry.name.startsWith('.')
        ? []
        : sourceFiles(path);
    return /\.(ts|mjs|html)$/.test(entry.name) || path === '.gitignore' ? [path] : [];
  });
}

describe('docs/ as the code cites it', () => {
  const files = sourceFiles();

  it('reads the code, the tools and the tests', () => {
    expect(files).toContain('control/cli/options.ts');
    expect(files).toContain('test/scripts/readme.test.ts');
    expect(files).toContain('.gitignore');
  });

  it('cites only pages that exist, and headings they have', () => {
    const broken: string[] = [];
    let cited = 0;
    for (const file of files) {
      for (const m of read(file).matchAll(/\bdocs\/((?:[\w-]+\/)*)([\w.-]+\.md)?(?:#([\w-]+))?/g)) {
        const [citation, folder = '', page, anchor] = m;
        if (page === undefined && folder === '') continue;
        cited++;
        const target = `docs/${folder}${page ?? ''}`;
        if (!existsSync(join(repoRoot, target))) broken.push(`${file}: ${citation} (no ${target})`);
        else if (anchor !== undefined && page !== undefined && !anchors(read(target)).has(anchor))
          broken.push(`${file}: ${citation} (no heading #${anchor})`);
      }
    }
    expect(cited).toBeGreaterThan(100);
    expect(broken).toEqual([]);
  });
});
