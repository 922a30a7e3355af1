// An A/B test of the waiting page through the handler: each visitor keeps one variant across checks
// and answers, the page comes from the variant's own store key at the same number of store reads, the
// log line names the variant, and a variant whose page is missing or broken shows the built-in page,
// said in the line and to the operator.
import { describe, expect, it } from 'vitest';
import { FakeRoom } from '../support/fakes.js';

const b64 = (html: string) => Buffer.from(html, 'utf8').toString('base64');
const page = (marker: string) => b64(`<!doctype html><html lang="{{lang}}"><title>x</title><p>${marker}</p></html>`);
const PAGES = {
  startwaiting: page('plain start'),
  keepwaiting: page('plain keep'),
  'startwaiting.b': page('variant b start'),
  'keepwaiting.b': page('variant b keep'),
};
/** A visitor's room cookie, from an answer, for their next check. */
const cookieOf = (setCookies: string[]) => setCookies[0]!.split(';')[0]!;

describe('the waiting page variants', () => {
  it('gives each visitor one variant, the same at every check, by weight, and names it in the line', async () => {
    const room = new FakeRoom({ settings: { allow_percentage: '0.001', page_variants: 'a,b' }, pages: PAGES });
    const seen = new Map<string, number>();
    for (let i = 0; i < 40; i++) {
      const ip = `198.51.100.${i}`;
      const first = await room.visit({ ip });
      const variant = first.log!.variant as string;
      expect(['a', 'b']).toContain(variant);
      seen.set(variant, (seen.get(variant) ?? 0) + 1);
      expect(first.body).toContain(variant === 'b' ? 'variant b start' : 'plain start');
      // Checking again before the draw: the same variant, on the keep-waiting page and in the JSON answer.
      const again = await room.visit({ ip, cookie: cookieOf(first.roomCookies) });
      expect(again.log).toMatchObject({ outcome: 'keepwaiting', variant });
      expect(again.body).toContain(variant === 'b' ? 'variant b keep' : 'plain keep');
      const json = await room.visit({
        ip,
        cookie: cookieOf(first.roomCookies),
        headers: { accept: 'application/json' },
      });
      expect(json.log!.variant).toBe(variant);
    }
    expect(seen.get('a')).toBeGreaterThan(5);
    expect(seen.get('b')).toBeGreaterThan(5);
    // Past the draw (lost at a chance of 0.001%): a new token, the same visitor, the same variant.
    const ip = '198.51.100.7';
    const before = await room.visit({ ip });
    room.advance(60);
    const later = await room.visit({ ip, cookie: cookieOf(before.roomCookies) });
    expect(later.log).toMatchObject({ reason: 'draw_lost', variant: before.log!.variant });
    expect(later.log!.newTid).not.toBe(before.log!.newTid);
  });

  it('reads no more store values than the same room without a test', async () => {
    const reads = async (settings: Record<string, string>) => {
      const room = new FakeRoom({ settings: { allow_percentage: '0.001', ...settings }, pages: PAGES });
      const counts: number[] = [];
      for (let i = 0; i < 12; i++) {
        const before = room.lookups;
        await room.visit({ ip: `203.0.113.${i}` });
        counts.push(room.lookups - before);
      }
      return counts;
    };
    const without = await reads({});
    expect(await reads({ page_variants: 'a,b' })).toEqual(without);
    expect(await reads({ page_variants: 'b', pages: 'shop' })).toEqual(await reads({ pages: 'shop' }));
  });

  it("reads a room's page set's variant under its own key", async () => {
    const room = new FakeRoom({
      settings: { allow_percentage: '0.001', page_variants: 'b', pages: 'checkout' },
      pages: { 'checkout.startwaiting.b': page('checkout b'), 'startwaiting.b': page('shared b') },
    });
    expect((await room.visit()).body).toContain('checkout b');
  });

  it('shows the built-in page for a variant whose page is missing or broken, and says why', async () => {
    const room = new FakeRoom({
      settings: { allow_percentage: '0.001', page_variants: 'b' },
      pages: { startwaiting: page('plain') },
    });
    const missing = await room.visit();
    expect(missing.body).toContain('You are in the queue');
    expect(missing.log).toMatchObject({ variant: 'b', variantFallback: 'missing' });
    expect(missing.diags.join('\n')).toMatch(
      /waiting_room_pages\.startwaiting\.b is missing: variant b shows the built-in page/,
    );
    room.pages.set('startwaiting.b', '%%% not base64 %%%');
    const unreadable = await room.visit({ ip: '192.0.2.99' });
    expect(unreadable.body).toContain('You are in the queue');
    expect(unreadable.log).toMatchObject({ variant: 'b', variantFallback: 'unreadable' });
    expect(unreadable.diags.join('\n')).toMatch(/waiting_room_pages\.startwaiting\.b is not valid base64/);
    room.pages.set('startwaiting.b', b64('<p>{{#open}}</p>'));
    const template = await room.visit({ ip: '192.0.2.98' });
    expect(template.body).toContain('You are in the queue');
    expect(template.log).toMatchObject({ variant: 'b', variantFallback: 'template' });
  });

  it('names no variant without a test, and the deny page is the same for every variant', async () => {
    const plain = new FakeRoom({ pages: PAGES });
    const line = (await plain.visit({ ip: '192.0.2.1' })).log!;
    expect('variant' in line).toBe(false);
    expect('variantFallback' in line).toBe(false);
    const closed = new FakeRoom({
      settings: { allow_percentage: '0', page_variants: 'b' },
      pages: { deny: page('plain deny'), 'deny.b': page('no such page') },
    });
    const denied = await closed.visit();
    expect(denied.body).toContain('plain deny');
    expect(denied.log).not.toHaveProperty('variantFallback');
  });
});
