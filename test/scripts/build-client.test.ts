// What an app gets from `npm run build:client`: one ES module that imports nothing, within its size
// budget, and declarations an app's TypeScript compiles against.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { bundleClient, clientDeclarations, clientOptions } from '../../scripts/build-client.js';

describe('the app client module', () => {
  it('imports nothing, exports the client, and stays within its size budget', async () => {
    const out = await build({ ...clientOptions, write: false, metafile: true, logLevel: 'silent' });
    const output = Object.values(out.metafile!.outputs)[0]!;
    expect(output.imports).toEqual([]);
    expect(output.exports.sort()).toEqual(
      [
        'CANNOT_SOLVE',
        'PROOF_HEADER',
        'RoomStatusError',
        'STATUS_PATH',
        'answerFrom',
        'pageSolver',
        'roomStatus',
        'waitForTurn',
        'watchRoom',
      ].sort(),
    );
    // ~28.9 KB today, 9.0 KB gzipped: the page's solver twice (its Worker script as text, ~11 KB, and
    // its solving function with altcha-lib and a SHA-256 for the main thread), the client ~5 KB.
    expect((await bundleClient()).length).toBeLessThan(32_000);
  });

  it('declares types an app compiles against, naming nothing outside the client', () => {
    const dir = mkdtempSync(join(tmpdir(), 'wr-client-types-'));
    try {
      const declarations = clientDeclarations();
      for (const [name, text] of declarations) {
        for (const m of text.matchAll(/from '([^']+)'/g)) expect(m[1], name).toMatch(/^\.\/[a-z-]+\.js$/);
        writeFileSync(join(dir, name), text);
      }
      writeFileSync(join(dir, 'index.js'), 'export {};');
      writeFileSync(
        join(dir, 'app.ts'),
        `import { watchRoom, type RoomEvent } from './index.js';
export async function show(stop: AbortSignal): Promise<string> {
  for await (const e of watchRoom('/tickets', { signal: stop, language: 'de-DE' })) {
    if (e.type === 'waiting') return e.answer.text?.waitSummary ?? String(e.answer.waitTime50PercentileSeconds);
    if (e.type === 'turn') return e.response.url;
  }
  return 'stopped';
}
export const kinds: RoomEvent['type'][] = ['waiting', 'countdown', 'denied', 'busy', 'solving', 'error', 'turn'];
`,
      );
      const program = ts.createProgram([join(dir, 'app.ts')], {
        strict: true,
        noEmit: true,
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.ESNext,
        moduleResolution: ts.ModuleResolutionKind.Bundler,
        lib: ['lib.es2022.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
        types: [],
        skipLibCheck: true,
      });
      const problems = ts
        .getPreEmitDiagnostics(program)
        .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      expect(problems).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
