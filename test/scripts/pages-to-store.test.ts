// The templates as the `waiting_room_pages` store holds them: the size limit, self-contained pages,
// and the `npm run pages` tool that encodes and uploads them.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { builtinPages, builtinPartials, renderPage } from '../../src/core/pages/pages.js';
import type { PageName } from '../../src/core/types.js';
import {
  encodePages,
  fastlyCommands,
  main,
  PAGE_STORE_VALUE_LIMIT,
  PageError,
  writeStoreFile,
} from '../../scripts/pages-to-store.js';
import { repoRoot } from '../../lib/paths.js';
import { pageVars } from '../pages/fake-room.js';

const NAMES = Object.keys(builtinPages) as PageName[];

function b64(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64');
}

/** Bytes of a rendered English page: what the template holds plus its words (about 1.5 KB of them). */
const RENDERED_PAGE_BUDGET = 8_000;

describe('built-in templates', () => {
  it.each(NAMES)('%s fits one store value as base64', (name) => {
    expect(b64(builtinPages[name]).length).toBeLessThanOrEqual(PAGE_STORE_VALUE_LIMIT);
  });

  // What is stored is the template (above); the rendered page is an answer, words and the script's
  // messages filled in: it stays small enough to come in one go on a phone during a surge.
  it.each(NAMES)('%s stays small once rendered with long numbers', (name) => {
    const html = renderPage(
      name,
      null,
      pageVars(name, {
        retryAfterSeconds: 86_400,
        refreshIntervalSeconds: 86_430,
        jitterSeconds: 30,
        waitTime75PercentileSeconds: 999_999,
      }),
      () => undefined,
    );
    expect(Buffer.byteLength(html)).toBeLessThanOrEqual(RENDERED_PAGE_BUDGET);
  });

  it.each(NAMES)('%s loads nothing from anywhere else (the page must not send visitors to the origin)', (name) => {
    // The template and the parts (CSS, scripts) it takes in. Save the proof-of-work solver, which the
    // edge serves itself (src/core/pages/solver-asset.ts).
    const html = [builtinPages[name], ...Object.values(builtinPartials)]
      .join('\n')
      .replaceAll('.src="{{{solverUrl}}}"', '');
    expect(html).not.toMatch(/<link\b|<img\b|<iframe\b|\bsrc=|@import|url\(|https?:\/\//i);
  });

  it.each(NAMES)('%s never traps a visitor on the page', (name) => {
    expect([builtinPages[name], ...Object.values(builtinPartials)].join('\n')).not.toMatch(
      /beforeunload|onunload|history\.pushState/,
    );
  });
});

describe('npm run pages', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'wr-pages-'));
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await rm(dir, { recursive: true, force: true });
  });

  it('encodes the four built-in pages so the room renders them exactly as its own', async () => {
    const out = join(dir, 'local', 'pages.json');
    await writeStoreFile(await encodePages(join(repoRoot, 'pages')), out);
    const store = JSON.parse(await readFile(out, 'utf8')) as Record<string, string>;
    expect(Object.keys(store).sort()).toEqual([...NAMES].sort());
    for (const name of NAMES) {
      const diags: string[] = [];
      const vars = pageVars(name);
      expect(renderPage(name, store[name] ?? null, vars, (m) => diags.push(m))).toBe(
        renderPage(name, null, vars, () => undefined),
      );
      expect(diags).toEqual([]);
    }
  });

  it('takes any subset of pages from another folder and warns about files the room never reads', async () => {
    await writeFile(join(dir, 'deny.html'), '<p>Fermé — revenez plus tard</p>');
    await writeFile(join(dir, 'waitng.html'), '<p>typo in the name</p>');
    const warnings: string[] = [];
    const pages = await encodePages(dir, (m) => warnings.push(m));
    expect(pages.map((p) => p.name)).toEqual(['deny']);
    expect(Buffer.from(pages[0]!.base64, 'base64').toString('utf8')).toBe('<p>Fermé — revenez plus tard</p>');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('waitng.html');
  });

  it('makes both waiting pages from one waiting.html, each with its own words, unless a page has its own file', async () => {
    const shared =
      '<h1>{{#isKeepWaiting}}Still waiting{{/isKeepWaiting}}{{^isKeepWaiting}}Welcome{{/isKeepWaiting}}</h1>';
    await writeFile(join(dir, 'waiting.html'), shared);
    const pages = await encodePages(dir);
    const text = (name: string) => Buffer.from(pages.find((p) => p.name === name)!.base64, 'base64').toString('utf8');
    expect(pages.map((p) => p.name)).toEqual(['startwaiting', 'keepwaiting']);
    expect([text('startwaiting'), text('keepwaiting')]).toEqual(['<h1>Welcome</h1>', '<h1>Still waiting</h1>']);
    await writeFile(join(dir, 'keepwaiting.html'), '<h1>Own page</h1>');
    expect((await encodePages(dir)).map((p) => [p.name, Buffer.from(p.base64, 'base64').toString('utf8')])).toEqual([
      ['startwaiting', '<h1>Welcome</h1>'],
      ['keepwaiting', '<h1>Own page</h1>'],
    ]);
  });

  it('refuses a page over the 8,000-character limit and says by how much', async () => {
    // 6,001 bytes encode to 8,004 base64 characters.
    await writeFile(join(dir, 'keepwaiting.html'), 'x'.repeat(6001));
    await writeFile(join(dir, 'deny.html'), 'x'.repeat(6000));
    const error = await encodePages(dir).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PageError);
    expect((error as Error).message).toContain(
      'keepwaiting.html: 8004 characters as base64, over the 8000-character limit',
    );
    expect((error as Error).message).not.toContain('deny.html');
  });

  it('refuses a template the room could not render rather than letting the edge fall back silently', async () => {
    await writeFile(join(dir, 'startwaiting.html'), '<p>{{#hasEstimate}}unclosed</p>');
    await expect(encodePages(dir)).rejects.toThrow(/startwaiting\.html: not a valid Mustache template/);
  });

  it('takes a template that uses the built-in parts, and refuses one naming a part that does not exist, listing those that do', async () => {
    await writeFile(
      join(dir, 'deny.html'),
      '<style>{{> style}}</style><h1>Closed</h1><script>{{> deny-script}}</script>',
    );
    expect((await encodePages(dir)).map((p) => p.name)).toEqual(['deny']);
    await writeFile(
      join(dir, 'startwaiting.html'),
      '<style>{{> styles}}</style>{{#hasEstimate}}{{> waiting}}{{/hasEstimate}}',
    );
    const error = await encodePages(dir).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PageError);
    expect((error as Error).message).toContain(
      'startwaiting.html: names {{> styles}}, {{> waiting}}, which do not exist',
    );
    expect((error as Error).message).toMatch(
      /\{\{> style\}\}.*\{\{> waiting-script\}\}.*\{\{> prequeue-script\}\}.*\{\{> deny-script\}\}/s,
    );
    expect((error as Error).message).not.toContain('deny.html');
  });

  it('fails with exit code 1 and a message on stderr, writing nothing', async () => {
    await writeFile(join(dir, 'deny.html'), 'x'.repeat(7000));
    const errors: string[] = [];
    vi.spyOn(console, 'error').mockImplementation((m: string) => void errors.push(m));
    const out = join(dir, 'pages.json');
    expect(await main(['--dir', dir, '--out', out], repoRoot)).toBe(1);
    expect(errors.join('\n')).toMatch(/deny\.html: 9336 characters as base64, over the 8000-character limit/);
    await expect(readFile(out)).rejects.toThrow();
  });

  it('prints the fastly CLI commands that upload every page, with the exact values', async () => {
    await writeFile(join(dir, 'startwaiting.html'), '<p>{{retryAfterSeconds}}</p>');
    await writeFile(join(dir, 'deny.html'), '<p>closed</p>');
    const printed: string[] = [];
    vi.spyOn(console, 'log').mockImplementation((m: string) => void printed.push(m));
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(await main(['--dir', dir, '--fastly-service', 'SU1Z0isxPaozGVKXdv0eY'], repoRoot)).toBe(0);
    const script = printed.join('\n');
    expect(script).toContain('npx fastly service resource-link list --service-id=SU1Z0isxPaozGVKXdv0eY');
    expect(script).toContain(
      `npx fastly config-store-entry update --upsert --store-id="$STORE_ID" --key=startwaiting --value='${b64('<p>{{retryAfterSeconds}}</p>')}'`,
    );
    expect(script).toContain(`--key=deny --value='${b64('<p>closed</p>')}'`);
    expect(script).not.toContain('--key=keepwaiting');
  });

  it('uses a known store id directly', async () => {
    const pages = [{ name: 'deny' as const, file: 'deny.html', chars: 3, base64: 'YWJj' }];
    expect(fastlyCommands(pages, { storeId: 'abc123' })).toBe(
      "npx fastly config-store-entry update --upsert --store-id=abc123 --key=deny --value='YWJj'",
    );
  });
});

describe('npm run pages -- --room', () => {
  let dir: string;
  const routing = JSON.stringify({
    rooms: [
      { id: 'shop', routes: ['/'] },
      { id: 'drops', routes: ['/drops'] },
    ],
    default_room: 'shop',
  });
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'wr-pages-room-'));
    await writeFile(join(dir, 'deny.html'), '<p>drops closed</p>');
    await writeFile(
      join(dir, 'config.json'),
      JSON.stringify({ routing, settings: JSON.stringify({ allow_percentage: '50' }) }),
    );
    await writeFile(
      join(dir, 'pages.json'),
      JSON.stringify({ deny: b64('<p>shared</p>'), 'other.deny': b64('<p>other</p>') }),
    );
    vi.spyOn(console, 'log').mockImplementation(() => undefined);
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await rm(dir, { recursive: true, force: true });
  });
  const json = async (file: string) => JSON.parse(await readFile(join(dir, file), 'utf8')) as Record<string, string>;

  it("writes the room's pages as ID.NAME beside the others and makes the room read them", async () => {
    expect(
      await main(
        ['--dir', dir, '--out', join(dir, 'pages.json'), '--room', 'drops', '--config-file', join(dir, 'config.json')],
        repoRoot,
      ),
    ).toBe(0);
    expect(await json('pages.json')).toEqual({
      deny: b64('<p>shared</p>'),
      'other.deny': b64('<p>other</p>'),
      'drops.deny': b64('<p>drops closed</p>'),
    });
    expect(JSON.parse((await json('config.json'))['room.drops']!)).toEqual({ pages: 'drops' });
  });

  it("keeps the rooms' own pages when it writes the shared ones", async () => {
    expect(await main(['--dir', dir, '--out', join(dir, 'pages.json')], repoRoot)).toBe(0);
    expect(await json('pages.json')).toEqual({ deny: b64('<p>drops closed</p>'), 'other.deny': b64('<p>other</p>') });
  });

  it('refuses a room the routing does not name, writing nothing', async () => {
    const errors: string[] = [];
    vi.spyOn(console, 'error').mockImplementation((m: string) => void errors.push(m));
    const before = await json('pages.json');
    expect(
      await main(
        ['--dir', dir, '--out', join(dir, 'pages.json'), '--room', 'drop', '--config-file', join(dir, 'config.json')],
        repoRoot,
      ),
    ).toBe(1);
    expect(errors.join('\n')).toContain('its rooms are shop, drops');
    expect(await json('pages.json')).toEqual(before);
    expect(await json('config.json')).not.toHaveProperty('room.drop');
  });

  it('prints the upload under ID.NAME and the tune command that points the room at them', async () => {
    const printed: string[] = [];
    vi.spyOn(console, 'log').mockImplementation((m: string) => void printed.push(m));
    expect(await main(['--dir', dir, '--room', 'drops', '--store-id', 'abc'], repoRoot)).toBe(0);
    expect(printed.join('\n')).toContain(`--key=drops.deny --value='${b64('<p>drops closed</p>')}'`);
    expect(printed.join('\n')).toContain('--room drops pages=drops');
  });
});

describe('npm run pages: variants of the waiting page', () => {
  let dir: string;
  const printed: string[] = [];
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'wr-pages-variants-'));
    printed.length = 0;
    vi.spyOn(console, 'log').mockImplementation((m: string) => void printed.push(m));
    vi.spyOn(console, 'error').mockImplementation((m: string) => void printed.push(m));
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await rm(dir, { recursive: true, force: true });
  });
  const shared = (word: string) =>
    `<h1>${word} {{#isKeepWaiting}}again{{/isKeepWaiting}}{{^isKeepWaiting}}first{{/isKeepWaiting}}</h1>`;
  const text = (base64: string) => Buffer.from(base64, 'base64').toString('utf8');

  it('stores waiting.b.html as both waiting pages of variant b, beside the plain ones, and says how to start the test', async () => {
    await writeFile(join(dir, 'waiting.html'), shared('Plain'));
    await writeFile(join(dir, 'waiting.b.html'), shared('Bold'));
    await writeFile(join(dir, 'keepwaiting.c.html'), '<h1>C again</h1>');
    await writeFile(join(dir, 'startwaiting.c.html'), '<h1>C first</h1>');
    const out = join(dir, 'pages.json');
    await writeFile(out, JSON.stringify({ 'shop.deny': b64('<p>kept</p>'), 'startwaiting.old': b64('<p>gone</p>') }));
    expect(await main(['--dir', dir, '--out', out], repoRoot)).toBe(0);
    const store = JSON.parse(await readFile(out, 'utf8')) as Record<string, string>;
    expect(Object.fromEntries(Object.entries(store).map(([k, v]) => [k, text(v)]))).toEqual({
      // A room's own pages stay; the shared set, variants included, is what the folder holds now.
      'shop.deny': '<p>kept</p>',
      startwaiting: '<h1>Plain first</h1>',
      keepwaiting: '<h1>Plain again</h1>',
      'startwaiting.b': '<h1>Bold first</h1>',
      'keepwaiting.b': '<h1>Bold again</h1>',
      'startwaiting.c': '<h1>C first</h1>',
      'keepwaiting.c': '<h1>C again</h1>',
    });
    const said = printed.join('\n');
    expect(said).toMatch(/startwaiting \(variant b\): \d+ characters/);
    expect(said).toContain('npm run tune -- page_variants=a,b,c');
  });

  it('prints the upload under NAME.VARIANT and ROOM.NAME.VARIANT', async () => {
    await writeFile(join(dir, 'waiting.b.html'), shared('Bold'));
    expect(await main(['--dir', dir, '--fastly-service', 'SVC1'], repoRoot)).toBe(0);
    expect(printed.join('\n')).toContain(`--key=startwaiting.b --value='${b64('<h1>Bold first</h1>')}'`);
    expect(printed.join('\n')).toContain('npm run tune -- --service SVC1 page_variants=a,b');
    printed.length = 0;
    expect(await main(['--dir', dir, '--room', 'drops', '--store-id', 'abc'], repoRoot)).toBe(0);
    expect(printed.join('\n')).toContain(`--key=drops.keepwaiting.b --value='${b64('<h1>Bold again</h1>')}'`);
    expect(printed.join('\n')).toContain('--room drops page_variants=a,b');
  });

  it('refuses a variant without both waiting pages, and ignores variants of other pages and of a', async () => {
    await writeFile(join(dir, 'waiting.html'), shared('Plain'));
    await writeFile(join(dir, 'deny.b.html'), '<p>closed, b</p>');
    await writeFile(join(dir, 'waiting.a.html'), '<p>a is the plain page</p>');
    await writeFile(join(dir, 'waiting.Big.html'), '<p>no name</p>');
    const warnings: string[] = [];
    const pages = await encodePages(dir, (m) => warnings.push(m));
    expect(pages.map((p) => [p.name, p.variant])).toEqual([
      ['startwaiting', null],
      ['keepwaiting', null],
    ]);
    expect(warnings.join('\n')).toMatch(/deny\.b\.html: ignored, only the waiting pages have variants/);
    expect(warnings.join('\n')).toMatch(/waiting\.a\.html: ignored, variant a is the plain pages/);
    expect(warnings.join('\n')).toMatch(/waiting\.Big\.html: ignored, "Big" is no variant name/);
    await writeFile(join(dir, 'startwaiting.d.html'), '<p>d</p>');
    await expect(encodePages(dir)).rejects.toThrow(/variant d has no keepwaiting page: write waiting\.d\.html/);
    await rm(join(dir, 'startwaiting.d.html'));
    await writeFile(join(dir, 'waiting.e.html'), '<p>{{#open}}</p>');
    await expect(encodePages(dir)).rejects.toThrow(/waiting\.e\.html: not a valid Mustache template/);
  });
});
