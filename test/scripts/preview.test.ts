// `npm run preview`: the link it prints is one the room shows (the pure handler, with the store and key
// file the tool read), for the minutes asked; the page, state and language are checked before signing.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { main as keys } from '../../scripts/keys.js';
import { main as preview } from '../../scripts/preview.js';
import { recordRoomAddress } from '../../scripts/start-ports.js';
import { FakeRoom } from '../support/fakes.js';
import { captured, readJson, scratch, type Scratch } from './helpers.js';

const NOW_MS = Date.UTC(2026, 0, 1);

const STORE = {
  routing: JSON.stringify({
    rooms: [
      { id: 'shop', routes: ['/'] },
      { id: 'checkout', routes: ['/checkout'] },
    ],
    default_room: 'shop',
  }),
  settings: JSON.stringify({ active_key: 'key1', log_endpoint: 'room_log' }),
  'room.checkout': JSON.stringify({ languages: 'en-US,de-DE' }),
};

let s: Scratch;
beforeEach(async () => {
  s = scratch(STORE);
  await captured(() => keys(['add-invite']));
});
afterEach(() => s.cleanup());

const run = (args: string[]) => captured(() => preview(args, NOW_MS));
const linkIn = (out: string): URL => new URL(/^link: +(\S+)$/m.exec(out)![1]!);

/** The room as it would run from the scratch store and key file, at `nowMs`. */
function room(nowMs: number): FakeRoom {
  return new FakeRoom({ store: STORE, keys: readJson(s.keys), nowMs });
}

describe('npm run preview', () => {
  it('prints a link the room shows, in the language asked, until it expires', async () => {
    const r = await run(['--room', 'shop', '--page', 'waiting', '--lang', 'ja-jp', '--minutes', '5']);
    expect(r.result, r.err).toBe(0);
    const link = linkIn(r.out);
    expect(link.origin).toBe('http://127.0.0.1:7676');
    expect(link.pathname).toBe('/__waiting_room/preview');
    expect(link.searchParams.get('wr_lang')).toBe('ja-JP');
    expect(r.out).toContain('room shop, startwaiting, in ja-JP, until 2026-01-01T00:05:00Z (5 min), key invite.k1');
    const shown = await room(NOW_MS + 299_000).visit({ path: `${link.pathname}${link.search}` });
    expect(shown.response.status).toBe(200);
    expect(shown.body).toContain('<html lang="ja-JP"');
    expect(shown.log).toMatchObject({ decision: 'preview', room: 'shop', preview: 'startwaiting' });
    const late = await room(NOW_MS + 300_000).visit({ path: `${link.pathname}${link.search}` });
    expect(late.response.status).toBe(403);
    expect(late.log).toMatchObject({ reason: 'preview_expired' });
  });

  it('signs the state asked, and opens where npm start last served the room', async () => {
    await recordRoomAddress(s.config, 'http://127.0.0.1:7677/');
    const r = await run(['--room', 'shop', '--page', 'keepwaiting', '--mode', 'fifo', '--proof']);
    expect(r.result, r.err).toBe(0);
    const link = linkIn(r.out);
    expect(link.origin).toBe('http://127.0.0.1:7677');
    expect(link.searchParams.has('wr_lang')).toBe(false);
    const payload = JSON.parse(
      Buffer.from(link.searchParams.get('wr_preview')!.split('.')[1]!, 'base64url').toString(),
    );
    expect(payload).toEqual({ room: 'shop', page: 'keepwaiting', exp: NOW_MS / 1000 + 600, mode: 'fifo', proof: true });
    const ab = await run(['--room', 'shop', '--page', 'waiting', '--variant', 'b']);
    expect(ab.result, ab.err).toBe(0);
    expect(ab.out).toContain('startwaiting, variant b');
    const signed = linkIn(ab.out).searchParams.get('wr_preview')!.split('.')[1]!;
    expect(JSON.parse(Buffer.from(signed, 'base64url').toString())).toMatchObject({ variant: 'b' });
  });

  it('lists the pages when --page is missing or none of them', async () => {
    for (const args of [
      ['--room', 'shop'],
      ['--room', 'shop', '--page', 'queue'],
    ]) {
      const r = await run(args);
      expect(r.error?.name).toBe('UsageError');
      expect(r.error?.message).toContain(
        'startwaiting, keepwaiting, prequeue, deny, closed, hammer, origin-down (waiting and countdown name',
      );
    }
  });

  it('refuses a state of another page, a language the room does not offer, a room the store lacks', async () => {
    expect((await run(['--room', 'shop', '--page', 'deny', '--mode', 'fifo'])).error?.message).toMatch(
      /states of the waiting pages/,
    );
    expect((await run(['--room', 'shop', '--page', 'deny', '--lang', 'xx-XX'])).error?.name).toBe('UsageError');
    expect((await run(['--room', 'shop', '--page', 'deny', '--variant', 'b'])).error?.message).toMatch(
      /--variant are states of the waiting pages/,
    );
    expect((await run(['--room', 'shop', '--page', 'waiting', '--variant', 'B'])).error?.message).toMatch(
      /--variant "B" is no variant name/,
    );
    const lang = await run(['--room', 'checkout', '--page', 'deny', '--lang', 'ja-JP']);
    expect(lang.error?.message).toContain('room checkout does not offer ja-JP (its languages: en-US, de-DE)');
    expect(lang.error?.message).toContain('npm run tune -- --room checkout languages=en-US,de-DE,ja-JP');
    const other = await run(['--room', 'sale', '--page', 'deny']);
    expect(other.error?.message).toMatch(/no room "sale" .*npm run preview -- --room shop --page/);
    for (const minutes of ['0', '1441', '2.5'])
      expect((await run(['--room', 'shop', '--page', 'deny', '--minutes', minutes])).error?.name).toBe('UsageError');
  });

  it('for a service: needs its address, and checks nothing against the local store', async () => {
    const none = await run(['--room', 'sale', '--page', 'deny', '--service', 'SVC1']);
    expect(none.error?.message).toMatch(/--url/);
    const r = await run([
      '--room',
      'sale',
      '--page',
      'deny',
      '--service',
      'SVC1',
      '--url',
      'https://www.example.com/x',
    ]);
    expect(r.result, r.err).toBe(0);
    expect(linkIn(r.out).href).toMatch(/^https:\/\/www\.example\.com\/__waiting_room\/preview\?wr_preview=/);
    expect(r.err).toContain('not checked');
  });
});
