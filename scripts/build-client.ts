// `npm run build:client`: the app client (client/, docs/apps.md) as one ES module a single-page app
// imports, build/client/index.js, with its type declarations beside it. The waiting page's solver is
// compiled into it twice over, as the page's Worker script (text) and as its solving function.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build, type BuildOptions } from 'esbuild';
import ts from 'typescript';
import { isMain, runTool, UsageError } from '../lib/cli.js';
import { repoRoot } from '../lib/paths.js';
import { solverPlugin } from '../lib/solver-bundle.js';

export const clientDir = join(repoRoot, 'client');
export const clientDist = join(repoRoot, 'build', 'client');

/** The module: browser ES2020, minified, nothing left to import. */
export const clientOptions: BuildOptions = {
  entryPoints: [join(clientDir, 'index.ts')],
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2020',
  minify: true,
  legalComments: 'none',
  plugins: [solverPlugin],
  logLevel: 'warning',
};

/** The module's text. */
export async function bundleClient(): Promise<string> {
  const out = await build({ ...clientOptions, write: false });
  return out.outputFiles[0]!.text;
}

/**
 * The declarations of client/'s modules (file name -> text): the types an app's TypeScript sees. Each
 * module declared on its own (TypeScript's isolated declarations: every export spells its type), so
 * the solver's modules, which no declaration names, stay out.
 */
export function clientDeclarations(): Map<string, string> {
  const out = new Map<string, string>();
  for (const name of readdirSync(clientDir).filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))) {
    const emitted = ts.transpileDeclaration(readFileSync(join(clientDir, name), 'utf8'), {
      fileName: name,
      compilerOptions: { isolatedDeclarations: true, declaration: true },
      reportDiagnostics: true,
    });
    const problems = emitted.diagnostics ?? [];
    if (problems.length > 0)
      throw new Error(
        `client/${name}: ${problems.map((d) => ts.flattenDiagnosticMessageText(d.messageText, ' ')).join('; ')}`,
      );
    out.set(name.replace(/\.ts$/, '.d.ts'), emitted.outputText);
  }
  return out;
}

const USAGE = `usage: npm run build:client   writes build/client/index.js (the app client, one ES module) and its .d.ts files`;

async function main(argv: readonly string[]): Promise<number> {
  if (argv.length > 0) throw new UsageError(`unknown option "${argv.join(' ')}"`);
  const module = await bundleClient();
  const declarations = clientDeclarations();
  rmSync(clientDist, { recursive: true, force: true });
  mkdirSync(clientDist, { recursive: true });
  writeFileSync(join(clientDist, 'index.js'), module);
  for (const [name, text] of declarations) writeFileSync(join(clientDist, name), text);
  console.log(
    `client: ${module.length} bytes -> ${join(clientDist, 'index.js')}, ${declarations.size} declaration files`,
  );
  return 0;
}

if (isMain(import.meta.url)) runTool('npm run build:client', USAGE, main);
