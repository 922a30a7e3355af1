// An A/B test of the waiting page on the built Wasm: two variants stored as `npm run pages` makes them,
// each visitor kept on one across checks and answers, the decision line naming it, a variant whose
// page is missing shown the built-in page, and the report counting the visitors of each from the lines.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { roomCookies } from '../../lib/mint.js';
import { LOG_ENDPOINT, startRoom, waitFor, type Room } from '../../lib/room-host.js';
import { repoRoot } from '../../lib/paths.js';
import { LogAggregator } from '../../report/aggregate.js';
import { encodePages, pageKey } from '../../scripts/pages-to-store.js';
import { BASE_SETTINGS, VISITOR_IDENTITY } from './base-settings.js';

let room: Room;
let pages: Record<string, string>;
beforeAll(async () => {
  // The built-in waiting page, and a variant b of it that says so: as an operator's folder holds them.
  const dir = await mkdtemp(join(tmpdir(), 'wr-ab-'));
  const waiting = await readFile(join(repoRoot, 'pages', 'waiting.html'), 'utf8');
  await writeFile(join(dir, 'waiting.html'), waiting);
  await writeFile(join(dir, 'waiting.b.html'), waiting.replace('<main', '<main data-variant="b"'));
  const encoded = await encodePages(dir);
  await rm(dir, { recursive: true, force: true });
  pages = Object.fromEntries(encoded.map((p) => [pageKey(p.name, null, p.variant ?? null), p.base64]));
  // -vv: the host prints each request's usage, its Config Store lookups among it.
  room = await startRoom({
    settings: { ...BASE_SETTINGS, ...VISITOR_IDENTITY, allow_percentage: '0.001', page_variants: 'a,b' },
    hostArgs: ['-vv'],
  });
  await room.setPages(pages);
});
afterAll(async () => {
  await room?.stop();
});

/** One visitor's check: the answer, its body and the decision line it logged. */
async function check(visitor: string, cookie?: string, json = false) {
  const before = room.decisions().length;
  const res = await fetch(`${room.url}/`, {
    headers: { 'x-visitor': visitor, ...(cookie ? { cookie } : {}), ...(json ? { accept: 'application/json' } : {}) },
  });
  const body = await res.text();
  const line = await waitFor(
    () =>
      room
        .decisions()
        .slice(before)
        .find((l) => l.method === 'GET'),
    5_000,
  );
  const set = roomCookies(res)[0];
  return { res, body, line, cookie: set === undefined ? cookie : set.split(';')[0]! };
}

describe('variants of the waiting page on the Wasm', () => {
  it('keeps each visitor on one variant across checks, shows its page, and names it in the line', async () => {
    expect(Object.keys(pages).sort()).toEqual(['keepwaiting', 'keepwaiting.b', 'startwaiting', 'startwaiting.b']);
    const byVariant = new Map<string, string[]>();
    // 16 visitors: all of one variant one time in 30,000.
    for (let i = 0; i < 16; i++) {
      const visitor = `ab-${i}`;
      const first = await check(visitor);
      const variant = first.line.variant as string;
      expect(['a', 'b'], JSON.stringify(first.line)).toContain(variant);
      expect(first.body.includes('data-variant="b"')).toBe(variant === 'b');
      byVariant.set(variant, [...(byVariant.get(variant) ?? []), visitor]);
      const again = await check(visitor, first.cookie);
      expect(again.line).toMatchObject({ outcome: 'keepwaiting', variant });
      expect(again.body.includes('data-variant="b"')).toBe(variant === 'b');
      const answer = await check(visitor, first.cookie, true);
      expect(answer.line.variant).toBe(variant);
      expect(JSON.parse(answer.body)).toHaveProperty('waitingRoom.inWaitingRoom', true);
    }
    expect(byVariant.get('a')?.length ?? 0).toBeGreaterThan(0);
    expect(byVariant.get('b')?.length ?? 0).toBeGreaterThan(0);
    // No line says a page fell back: both variants are stored.
    expect(room.decisions().filter((l) => 'variantFallback' in l)).toEqual([]);

    // The report, from the room's own lines, counts every visitor once in the variant they were shown.
    const report = new LogAggregator();
    for (const line of room.logs()) if (line.includes(`${LOG_ENDPOINT} :: `)) report.line(line);
    const counted = report.finish().variants.get('default')!;
    expect(counted.get('a')?.visitors ?? 0).toBe(byVariant.get('a')!.length);
    expect(counted.get('b')?.visitors ?? 0).toBe(byVariant.get('b')!.length);
  });

  it('reads as many store values for a variant as without a test, as the host counts them', async () => {
    const lookups = async (visitor: string) => {
      const usage = () => room.logs().filter((l) => l.startsWith('usage: '));
      const before = usage().length;
      const answer = await check(visitor);
      const line = await waitFor(() => usage()[before], 5_000);
      return { variant: answer.line.variant ?? null, lookups: Number(/config_lookups=(\d+)/.exec(line)?.[1]) };
    };
    const seen = new Map<string | null, number>();
    // 20 visitors: all of one variant one time in half a million.
    for (let i = 0; i < 20; i++) {
      const { variant, lookups: n } = await lookups(`count-${i}`);
      seen.set(variant as string, n);
    }
    // The five settings values, the page (the variant's own key) and the operator's strings for its language.
    expect(seen.get('a')).toBe(7);
    expect(seen.get('b')).toBe(7);
    await room.setConfig({ ...BASE_SETTINGS, ...VISITOR_IDENTITY, allow_percentage: '0.001' });
    try {
      const { variant, lookups: n } = await lookups('count-without');
      expect(variant).toBeNull();
      expect(n).toBe(7);
    } finally {
      await room.setConfig({ ...BASE_SETTINGS, ...VISITOR_IDENTITY, allow_percentage: '0.001', page_variants: 'a,b' });
    }
  });

  it('shows the built-in page for a variant whose page is missing, and says so in the line and to the operator', async () => {
    await room.setPages({ startwaiting: pages.startwaiting!, keepwaiting: pages.keepwaiting! });
    try {
      let fell: Awaited<ReturnType<typeof check>> | undefined;
      for (let i = 0; fell === undefined && i < 40; i++) {
        const answer = await check(`missing-${i}`);
        if (answer.line.variant === 'b') fell = answer;
      }
      expect(fell, 'no visitor of 40 got variant b').toBeDefined();
      expect(fell!.res.status).toBe(200);
      expect(fell!.body).toContain('<main');
      expect(fell!.body).not.toContain('data-variant="b"');
      expect(fell!.line).toMatchObject({ variant: 'b', variantFallback: 'missing' });
      const said = /waiting_room_pages\.startwaiting\.b is missing: variant b shows the built-in page/;
      expect(await waitFor(() => room.errors().find((l) => said.test(l)), 5_000)).toBeDefined();
    } finally {
      await room.setPages(pages);
    }
  });
});
