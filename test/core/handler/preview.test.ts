// Preview links through the pure handler: the page the link names, as the room renders it (its
// settings, its stored pages and strings, the language asked for) with made-up figures; answered before
// any routing or rule, so never the origin's; no cookie, no token; refused links get a 403 and a reason;
// one line a request, logged as a preview.
import { describe, expect, it } from 'vitest';
import { catalog as german } from '../../../src/core/i18n/catalogs/de-DE.js';
import { catalog as english } from '../../../src/core/i18n/catalogs/en-US.js';
import { catalog as japanese } from '../../../src/core/i18n/catalogs/ja-JP.js';
import { PREVIEW_MARKER_ID } from '../../../src/core/pages/index.js';
import {
  signInvite,
  PREVIEW_PARAM,
  PREVIEW_PATH,
  type PreviewClaims,
  type PreviewPage,
  signPreview,
} from '../../../src/core/tokens/index.js';
import { FakeRoom, KEY_BASE64, KID } from '../../support/fakes.js';

const INVITE_KEY = Uint8Array.from({ length: 32 }, (_, i) => (i * 7 + 3) & 255);
const OTHER_KEY = Uint8Array.from({ length: 32 }, (_, i) => (i * 11 + 5) & 255);
const routing = JSON.stringify({
  rooms: [
    { id: 'shop', routes: ['/'] },
    { id: 'sale', routes: ['/sale'] },
  ],
  // A rule that would send everything to the origin: the preview is answered before any rule.
  rules: [{ id: 'all', if: { path: { prefix: '/' } }, then: 'bypass' }],
});

function rooms(store: Record<string, string> = {}, pages: Record<string, string> = {}): FakeRoom {
  return new FakeRoom({
    settings: { allow_percentage: '50', wait_period_duration: '30' },
    keys: { [KID]: KEY_BASE64, 'invite.k1': Buffer.from(INVITE_KEY).toString('base64') },
    store: { routing, ...store },
    pages: pages as never,
  });
}

async function link(
  room: FakeRoom,
  page: PreviewPage,
  over: Partial<PreviewClaims> & { kid?: string; key?: Uint8Array; lang?: string } = {},
): Promise<string> {
  const { kid = 'k1', key = INVITE_KEY, lang, ...claims } = over;
  const text = await signPreview({ room: 'sale', page, exp: room.nowSec + 600, ...claims }, kid, key);
  return `${PREVIEW_PATH}?${PREVIEW_PARAM}=${text}${lang === undefined ? '' : `&wr_lang=${lang}`}`;
}

const text = (html: string): string =>
  html
    .replace(/<script[\s\S]*?<\/script>|<style[\s\S]*?<\/style>/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#39;/g, "'");

describe('a preview link', () => {
  it('renders the waiting page in the language asked, with made-up figures, and nothing else happens', async () => {
    const room = rooms({ 'room.sale': JSON.stringify({ message: 'Sale at ten', 'message.ja-JP': '十時に販売' }) });
    const answer = await room.visit({ path: await link(room, 'keepwaiting', { lang: 'ja-JP' }) });
    expect(answer.response.status).toBe(200);
    expect(answer.body).toContain('<html lang="ja-JP"');
    expect(text(answer.body)).toContain(japanese.waitingTitleKeep);
    // The room's message in that language, and the made-up wait (4, 9 and 15 minutes).
    expect(answer.body).toContain('十時に販売');
    expect(text(answer.body)).toMatch(/15\s*分/);
    expect(answer.body).toContain(`id="${PREVIEW_MARKER_ID}"`);
    // Its language links keep the link: the same preview in another language.
    expect(answer.body).toMatch(/<a href="\?wr_preview&#x3D;[^"]+&amp;wr_lang&#x3D;de-DE" lang="de-DE"/);
    expect(answer.body).toMatch(/Preview of room sale: keepwaiting, random, ja-JP/);
    // No origin, no cookie (not even the language's), no token.
    expect(room.seen).toHaveLength(0);
    expect(answer.response.headers.get('set-cookie')).toBeNull();
    expect(answer.response.headers.get('cache-control')).toContain('no-store');
    expect(answer.response.headers.get('x-robots-tag')).toContain('noindex');
    expect(answer.response.headers.get('content-security-policy')).toContain("connect-src 'none'");
    expect(answer.log).toMatchObject({
      room: 'sale',
      decision: 'preview',
      outcome: 'preview',
      reason: 'preview',
      preview: 'keepwaiting',
      lang: 'ja-JP',
      status: 200,
      tid: null,
      newTid: null,
    });
    // The routing, the room's four values, the template and the shared strings.
    expect(room.lookups).toBeLessThanOrEqual(8);
  });

  it('shows a place in line in a first-come room, and the built-in script is told it is a preview', async () => {
    const room = rooms();
    const answer = await room.visit({ path: await link(room, 'startwaiting', { mode: 'fifo' }) });
    expect(text(answer.body)).toContain(english.waitingIntroStartFifo);
    expect(text(answer.body)).toMatch(/about 1,200 people ahead/);
    expect(answer.body).toContain(',V="1",');
    // A visitor's page (the rooms without the rule that sends all to the origin): its script checks.
    room.store.set('routing', JSON.stringify({ rooms: [{ id: 'sale', routes: ['/'] }] }));
    const real = await room.visit({ path: '/', headers: { accept: 'text/html' } });
    expect(real.log).toMatchObject({ room: 'sale', outcome: 'startwaiting' });
    expect(real.body).toContain(',V="",');
  });

  it('renders every page the room answers with', async () => {
    const room = rooms({ 'room.sale': JSON.stringify({ default_language: 'de-DE', languages: 'de-DE,en-US' }) });
    const expected: Record<PreviewPage, string> = {
      startwaiting: german.waitingTitleStart,
      keepwaiting: german.waitingTitleKeep,
      prequeue: german.prequeueTitle,
      deny: german.denyTitle,
      closed: german.closedTitle,
      hammer: german.hammerHeading,
      'origin-down': german.originDownHeading,
    };
    for (const [page, heading] of Object.entries(expected)) {
      const answer = await room.visit({ path: await link(room, page as PreviewPage) });
      expect(answer.response.status, page).toBe(200);
      expect(answer.body, page).toContain('lang="de-DE"');
      expect(text(answer.body), page).toContain(heading);
      // The 429's page would reload itself; its preview does not.
      expect(answer.body, page).not.toContain('http-equiv="refresh"');
    }
    expect(room.seen).toHaveLength(0);
  });

  it("uses the room's stored page of its page set", async () => {
    const template = Buffer.from('<html><body><h1>Own page {{lang}}</h1></body></html>').toString('base64');
    const room = rooms({ 'room.sale': JSON.stringify({ pages: 'sale' }) }, { 'sale.startwaiting': template });
    const answer = await room.visit({ path: await link(room, 'startwaiting') });
    expect(answer.body).toContain('Own page en-US');
    expect(answer.body.indexOf(PREVIEW_MARKER_ID)).toBeLessThan(answer.body.indexOf('Own page'));
  });

  it("shows an A/B variant's waiting page from its own key, and the built-in page when it is not stored", async () => {
    const b64 = (html: string) => Buffer.from(html, 'utf8').toString('base64');
    const room = rooms(
      { 'room.sale': JSON.stringify({ pages: 'sale' }) },
      { 'sale.startwaiting': b64('<h1>Plain</h1>'), 'sale.startwaiting.b': b64('<h1>Variant b</h1>') },
    );
    const before = room.lookups;
    expect((await room.visit({ path: await link(room, 'startwaiting', { variant: 'b' }) })).body).toContain(
      'Variant b',
    );
    expect(room.lookups - before).toBeLessThanOrEqual(8);
    expect((await room.visit({ path: await link(room, 'startwaiting', { variant: 'a' }) })).body).toContain('Plain');
    const missing = await room.visit({ path: await link(room, 'startwaiting', { variant: 'c' }) });
    expect(missing.response.status).toBe(200);
    expect(text(missing.body)).toContain(english.waitHeading);
  });

  it.each([
    ['expired', 'preview_expired', { exp: 1 }],
    ['forged', 'preview_forged', { key: OTHER_KEY }],
    ['signed with a key the service lacks', 'preview_unknown_key', { kid: 'gone' }],
    ['for a room the service lacks', 'preview_unknown_room', { room: 'elsewhere' }],
  ] as const)('refuses a link %s: 403, a reason, logged', async (_what, reason, over) => {
    const room = rooms();
    const path = await link(room, 'startwaiting', { ...over, ...('exp' in over ? { exp: room.nowSec - 1 } : {}) });
    const answer = await room.visit({ path, headers: { accept: 'application/json' } });
    expect(answer.response.status).toBe(403);
    expect(JSON.parse(answer.body)).toMatchObject({ preview: { reason } });
    expect(answer.response.headers.get('set-cookie')).toBeNull();
    expect(answer.log).toMatchObject({ decision: 'preview', reason, status: 403 });
    const page = await room.visit({ path });
    expect(page.body).toContain(reason);
    expect(room.seen).toHaveLength(0);
  });

  it('refuses a changed or missing link as malformed, and an invitation is no preview', async () => {
    const room = rooms();
    const good = await link(room, 'startwaiting');
    for (const path of [PREVIEW_PATH, `${good.slice(0, -3)}`, `${PREVIEW_PATH}?${PREVIEW_PARAM}=a.b.c`]) {
      const answer = await room.visit({ path, headers: { accept: 'application/json' } });
      expect(answer.response.status, path).toBe(403);
      expect(JSON.parse(answer.body).preview.reason, path).toMatch(/^preview_(malformed|forged)$/);
    }
    // Signed with the same key, an invitation is no preview link, and a preview link no invitation.
    const invite = await signInvite({ room: 'sale', sub: 'ip:192.0.2.10', exp: room.nowSec + 600 }, 'k1', INVITE_KEY);
    const asPreview = await room.visit({ path: `${PREVIEW_PATH}?${PREVIEW_PARAM}=${invite}` });
    expect(asPreview.log).toMatchObject({ reason: 'preview_malformed', status: 403 });
    room.store.set('routing', JSON.stringify({ rooms: [{ id: 'sale', routes: ['/'] }] }));
    const asInvite = await room.visit({ path: `/?waiting_room_invite=${good.split('=')[1]}` });
    expect(asInvite.log).toMatchObject({ room: 'sale', outcome: 'startwaiting', invite: 'invite_malformed' });
    expect(room.seen).toHaveLength(0);
  });
});
