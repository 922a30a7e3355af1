// Preview links on the built room (docs/operating.md, "Previewing a page"): the page a link names, in
// the language asked, with made-up figures, answered by the room itself (a rule that sends every path
// to the origin notwithstanding); the origin never called, no cookie, no token; expired, forged,
// unknown-key and other-room links refused with their reason; within the store-read budget.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor, startRoom, TEST_KID, type Room } from '../../lib/room-host.js';
import { catalog as japanese } from '../../src/core/i18n/catalogs/ja-JP.js';
import { PREVIEW_PARAM, PREVIEW_PATH, type PreviewClaims, signPreview } from '../../src/core/tokens/index.js';
import { BASE_SETTINGS } from './base-settings.js';

const INVITE_KEY = Uint8Array.from({ length: 32 }, (_, i) => (i * 7 + 3) & 255);
const OTHER_KEY = Uint8Array.from({ length: 32 }, (_, i) => (i * 13 + 1) & 255);
const STORE = {
  routing: JSON.stringify({
    rooms: [
      { id: 'shop', routes: ['/'] },
      { id: 'sale', routes: ['/sale'] },
    ],
    rules: [{ id: 'everything', if: { path: { prefix: '/' } }, then: 'bypass' }],
  }),
  // A page set of its own and a message in Japanese: the preview reads them as the room's pages do.
  'room.sale': JSON.stringify({ pages: 'sale', message: 'Doors at ten', 'message.ja-JP': '十時開場' }),
};

let room: Room;
beforeAll(async () => {
  room = await startRoom({ settings: BASE_SETTINGS, store: STORE, hostArgs: ['-vv'] });
  await room.setKeys({ [TEST_KID]: room.key.base64, 'invite.k1': Buffer.from(INVITE_KEY).toString('base64') });
  await room.setPages({
    'sale.keepwaiting': Buffer.from(
      '<!doctype html><html lang="{{lang}}"><body><h1>{{t.waitingTitleKeep}}</h1><p>{{waitTimeSummary}}</p><p>{{message}}</p></body></html>',
    ).toString('base64'),
  });
});
afterAll(async () => {
  await room?.stop();
});

const nowSec = () => Math.floor(Date.now() / 1000);

async function open(
  claims: Partial<PreviewClaims>,
  options: { lang?: string; kid?: string; key?: Uint8Array; accept?: string } = {},
) {
  const text = await signPreview(
    { room: 'sale', page: 'keepwaiting', exp: nowSec() + 600, ...claims },
    options.kid ?? 'k1',
    options.key ?? INVITE_KEY,
  );
  const seen = room.decisions().length;
  const usage = room.logs().filter((l) => l.startsWith('usage: ')).length;
  const lang = options.lang === undefined ? '' : `&wr_lang=${options.lang}`;
  const response = await fetch(`${room.url}${PREVIEW_PATH}?${PREVIEW_PARAM}=${text}${lang}`, {
    headers: { accept: options.accept ?? 'text/html' },
    redirect: 'manual',
  });
  const body = await response.text();
  const log = await waitFor(() => room.decisions()[seen]);
  const used = await waitFor(() => room.logs().filter((l) => l.startsWith('usage: '))[usage]);
  const lookups = Number(/config_lookups=(\d+)/.exec(used)?.[1]);
  return { response, body, log, lookups, cpuMs: Number(/cpu_ms=([\d.]+)/.exec(used)?.[1]) };
}

describe('a preview link on the built room', () => {
  it("renders the room's own page in the language asked, with made-up figures, and nothing else", async () => {
    const { response, body, log, lookups, cpuMs } = await open({}, { lang: 'ja-JP' });
    expect(response.status).toBe(200);
    expect(body).toContain('<html lang="ja-JP"');
    expect(body).toContain(japanese.waitingTitleKeep);
    expect(body).toContain('十時開場');
    // The made-up wait of 4 to 15 minutes, in Japanese.
    expect(body).toMatch(/15\s*分/);
    expect(body).toContain('Preview of room sale: keepwaiting, random, ja-JP');
    expect(response.headers.get('set-cookie')).toBeNull();
    expect(response.headers.get('cache-control')).toContain('no-store');
    expect(response.headers.get('x-robots-tag')).toContain('noindex');
    expect(log).toMatchObject({ room: 'sale', decision: 'preview', reason: 'preview', lang: 'ja-JP', newTid: null });
    // The routing, the room's four values, its page set's template and its strings and the shared ones.
    expect(lookups).toBeLessThanOrEqual(8);
    console.log(`a preview of a room with its own page set: ${lookups} Config Store lookups, ${cpuMs} ms CPU`);
    expect(room.origin.requests).toHaveLength(0);
  });

  it.each([
    ['expired', 'preview_expired', { exp: 1_000_000_000 }, {}],
    ['forged', 'preview_forged', {}, { key: OTHER_KEY }],
    ['signed with a key the service lacks', 'preview_unknown_key', {}, { kid: 'gone' }],
    ['for a room the service lacks', 'preview_unknown_room', { room: 'elsewhere' }, {}],
  ] as const)('refuses a link %s with a 403 and its reason', async (_what, reason, claims, options) => {
    const { response, body, log } = await open(claims, { ...options, accept: 'application/json' });
    expect(response.status).toBe(403);
    expect(JSON.parse(body)).toMatchObject({ preview: { reason } });
    expect(response.headers.get('set-cookie')).toBeNull();
    expect(log).toMatchObject({ decision: 'preview', reason, status: 403 });
    expect(room.origin.requests).toHaveLength(0);
  });
});
