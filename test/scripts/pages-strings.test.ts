// `npm run pages` with a folder's strings/TAG.json: an operator's strings for one language, checked as
// the edge checks them and refused before anything is written, stored compact as strings.TAG (or a
// room's ROOM.strings.TAG) beside the pages.
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../scripts/pages-to-store.js';
import { encodeStrings } from '../../scripts/pages-strings.js';
import { repoRoot } from '../../lib/paths.js';

let dir: string;
let out: string;
let errors: string[];
let printed: string[];
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'wr-strings-'));
  out = join(dir, 'local', 'pages.json');
  await mkdir(join(dir, 'mine', 'strings'), { recursive: true });
  errors = [];
  printed = [];
  vi.spyOn(console, 'error').mockImplementation((m: unknown) => void errors.push(String(m)));
  vi.spyOn(console, 'log').mockImplementation((m: unknown) => void printed.push(String(m)));
});
afterEach(async () => {
  vi.restoreAllMocks();
  await rm(dir, { recursive: true, force: true });
});

const strings = (tag: string, value: unknown) =>
  writeFile(
    join(dir, 'mine', 'strings', `${tag}.json`),
    typeof value === 'string' ? value : JSON.stringify(value, null, 2),
  );

describe('npm run pages with strings', () => {
  it("stores a language's strings compact as strings.TAG, with no template needed", async () => {
    await strings('en-US', { waitHeading: 'How long it takes', checkNow: 'Look again' });
    expect(await main(['--dir', join(dir, 'mine'), '--out', out])).toBe(0);
    const store = JSON.parse(await readFile(out, 'utf8')) as Record<string, string>;
    expect(store['strings.en-US']).toBe('{"waitHeading":"How long it takes","checkNow":"Look again"}');
    expect(printed.join('\n')).toMatch(/strings\.en-US: 2 strings/);
  });

  it('refuses a file for a language the room does not ship, an unknown key, a broken message or a plural case the language lacks, and writes nothing', async () => {
    await strings('xx-YY', { checkNow: 'x' });
    await strings('en-US', {
      nope: 'x',
      turnIn: 'Your turn in {duration',
      peopleExact: '{count, plural, few {# a} other {# b}}',
    });
    expect(await main(['--dir', join(dir, 'mine'), '--out', out])).toBe(1);
    const said = errors.join('\n');
    expect(said).toMatch(/xx-YY\.json: not a built-in language/);
    expect(said).toMatch(/en-US\.json: nope/);
    expect(said).toMatch(/en-US\.json: turnIn/);
    expect(said).toMatch(/en-US\.json: peopleExact/);
    await expect(readFile(out, 'utf8')).rejects.toThrow();
  });

  it("keeps an operator's folder for the next plain run (the one npm start makes), and --dir pages goes back", async () => {
    await strings('de-DE', { waitHeading: 'Wie lange es dauert' });
    expect(await main(['--dir', join(dir, 'mine'), '--out', out])).toBe(0);
    // What npm start's build runs: no --dir.
    printed = [];
    expect(await main(['--out', out])).toBe(0);
    const store = JSON.parse(await readFile(out, 'utf8')) as Record<string, string>;
    expect(store['strings.de-DE']).toBe('{"waitHeading":"Wie lange es dauert"}');
    expect(printed.join('\n')).toMatch(
      /from .*mine \(chosen by npm run pages -- --dir; --dir pages goes back to the project's pages\)/,
    );
    expect(await main(['--dir', join(repoRoot, 'pages'), '--out', out])).toBe(0);
    expect(await main(['--out', out])).toBe(0);
    expect((JSON.parse(await readFile(out, 'utf8')) as Record<string, string>)['strings.de-DE']).toBeUndefined();
  });

  it('refuses a misspelt key with one true message, naming the key it likely meant', async () => {
    await strings('de-DE', { waitHeadng: 'Wartezeit' });
    expect(await main(['--dir', join(dir, 'mine'), '--out', out])).toBe(1);
    const said = errors.join('\n');
    expect(said).toMatch(/de-DE\.json: waitHeadng: is not a message key: did you mean waitHeading\?/);
    // The file is refused whole, so nothing says it was ignored and the rest written.
    expect(said).not.toMatch(/ignoring/);
    await expect(readFile(out, 'utf8')).rejects.toThrow();
  });

  it('refuses a file that is not JSON, naming it', async () => {
    await strings('en-US', '{ "checkNow": ');
    expect(await main(['--dir', join(dir, 'mine'), '--out', out])).toBe(1);
    expect(errors.join('\n')).toMatch(/en-US\.json: not valid JSON/);
  });

  it('refuses strings over one store value', async () => {
    await strings('en-US', { waitPending: 'x'.repeat(8_100) });
    const { problems } = await encodeStrings(join(dir, 'mine'));
    expect(problems.join('\n')).toMatch(/over the 8000-character limit/);
  });

  it('prints the upload for a service, the strings under their key', async () => {
    await strings('en-US', { checkNow: "Look again, it's free" });
    expect(await main(['--dir', join(dir, 'mine'), '--fastly-service', 'SVC1'])).toBe(0);
    const line = printed
      .join('\n')
      .split('\n')
      .find((l) => l.includes('--key=strings.en-US'));
    expect(line).toMatch(
      /^npx fastly config-store-entry update --upsert --store-id="\$STORE_ID" --key=strings\.en-US --value=/,
    );
    // The value as the shell hands it to the fastly CLI: the JSON exactly, quote and all.
    const value = line!.slice(line!.indexOf('--value=') + '--value='.length);
    expect(execFileSync('sh', ['-c', `printf %s ${value}`], { encoding: 'utf8' })).toBe(
      '{"checkNow":"Look again, it\'s free"}',
    );
  });

  it("a room's strings go under its page set, ROOM.strings.TAG, and the shared ones stay", async () => {
    await writeFile(
      join(dir, 'config.json'),
      JSON.stringify({ routing: JSON.stringify({ rooms: [{ id: 'checkout', routes: ['/checkout'] }] }) }),
    );
    await mkdir(join(dir, 'local'), { recursive: true });
    await writeFile(out, JSON.stringify({ 'strings.en-US': '{"checkNow":"Shared"}' }));
    await strings('en-US', { checkNow: 'Checkout' });
    expect(
      await main([
        '--dir',
        join(dir, 'mine'),
        '--out',
        out,
        '--room',
        'checkout',
        '--config-file',
        join(dir, 'config.json'),
      ]),
    ).toBe(0);
    const store = JSON.parse(await readFile(out, 'utf8')) as Record<string, string>;
    expect(store['checkout.strings.en-US']).toBe('{"checkNow":"Checkout"}');
    expect(store['strings.en-US']).toBe('{"checkNow":"Shared"}');
  });
});
