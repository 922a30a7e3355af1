// An A/B test's cost to the waiting page (pages/README.md, "A/B variants of the waiting page"), in the
// room's own time on one timed host, one request of each scenario in turn (bench/room-time.ts): a
// not-due wait token's waiting page in a room without a test, against the same page in a room running
// `page_variants=a,b` for a visitor of variant a (the plain page: the test's own work, reading the
// token's sub and choosing) and of variant b (its page under its own key). The stored pages are the
// built-in waiting page and a copy of it that says it is b, the same size.
//
//   npx tsx bench/room-variants.ts      alone (about 2 minutes); `npm run bench` runs it too
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { startEchoOrigin, type EchoOrigin } from '../lib/echo-origin.js';
import { mintToken, windowBoundary } from '../lib/mint.js';
import { isMain } from '../lib/cli.js';
import { repoRoot } from '../lib/paths.js';
import { type Settings, TEST_KID } from '../lib/room-host.js';
import { chooseVariant, waitingPage } from '../src/core/answer/index.js';
import { cookieName, identityHash } from '../src/core/request/index.js';
import { ROUTING_KEY, roomKey } from '../src/core/settings/index.js';
import { round2 } from './room-figures.js';
import { BENCH_SETTINGS } from './room-scenarios.js';
import { roomTimes, type RoomTime } from './room-time.js';

const IDENTITY_HEADER = 'x-bench-id';
const VARIANTS = [
  { name: 'a', weight: 1 },
  { name: 'b', weight: 1 },
];

export interface VariantCost {
  /** The waiting page in a room without a test. */
  plain: RoomTime;
  /** The same page in a room with a test, for a visitor of variant a (the plain pages) and of b. */
  a: RoomTime;
  b: RoomTime;
  aUs: number;
  aRatio: number;
  bUs: number;
  bRatio: number;
}

/** A visitor name whose identity, under `keyBytes`, is shown `variant`. */
async function visitorOf(keyBytes: Uint8Array, variant: string): Promise<string> {
  for (let i = 0; i < 200; i++) {
    const visitor = `bench-ab-${i}`;
    if (chooseVariant(VARIANTS, await identityHash(keyBytes, `header:${visitor}`)) === variant) return visitor;
  }
  throw new Error(`no visitor of variant ${variant} among 200 (probability ~0)`);
}

/** `settings` must have windows long enough that nothing expires during the run (bench/room-scenarios.ts's hour). */
export async function variantCost(
  origin: EchoOrigin,
  settings: Settings,
  keyBytes: Uint8Array,
  kid: string,
  requests = 1500,
): Promise<VariantCost> {
  const d = Number(settings.wait_period_duration);
  const exp = windowBoundary(d, 1);
  const notDue = (visitor: string, room: string) =>
    mintToken({ key: keyBytes, kid, identity: `header:${visitor}` }, { dec: 'wait', exp, room });
  const visitorA = await visitorOf(keyBytes, 'a');
  const visitorB = await visitorOf(keyBytes, 'b');
  const template = await readFile(join(repoRoot, 'pages', 'waiting.html'), 'utf8');
  const b64 = (html: string) => Buffer.from(html, 'utf8').toString('base64');
  const variantB = template.replace('<main', '<main data-v="b"');
  const pages = {
    startwaiting: b64(waitingPage(template, 'startwaiting')),
    keepwaiting: b64(waitingPage(template, 'keepwaiting')),
    'startwaiting.b': b64(waitingPage(variantB, 'startwaiting')),
    'keepwaiting.b': b64(waitingPage(variantB, 'keepwaiting')),
  };
  const store = {
    [ROUTING_KEY]: JSON.stringify({
      rooms: [
        { id: 'ab', routes: ['/ab'] },
        { id: 'plain', routes: ['/plain'] },
      ],
    }),
    [roomKey('ab')]: JSON.stringify({ page_variants: 'a,b' }),
    // The same room settings to read and parse, with the test off (blank is unset).
    [roomKey('plain')]: JSON.stringify({ page_variants: '' }),
  };
  const as = (visitor: string, room: string, token: string) => () => ({
    [IDENTITY_HEADER]: visitor,
    cookie: `${cookieName(room)}=${token}`,
  });
  const page = (s: number): boolean => s === 200;
  const times = await roomTimes(
    origin,
    { ...settings, identity: `header:${IDENTITY_HEADER}`, hammer_limit: '0' },
    keyBytes,
    [
      {
        name: 'plain',
        path: '/plain/page',
        headers: as(visitorA, 'plain', await notDue(visitorA, 'plain')),
        expect: page,
      },
      { name: 'a', path: '/ab/page', headers: as(visitorA, 'ab', await notDue(visitorA, 'ab')), expect: page },
      { name: 'b', path: '/ab/page', headers: as(visitorB, 'ab', await notDue(visitorB, 'ab')), expect: page },
    ],
    requests,
    store,
    { alternate: true, pages },
  );
  const { plain, a, b } = times as Record<'plain' | 'a' | 'b', RoomTime>;
  return {
    plain,
    a,
    b,
    aUs: round2(a.medianUs - plain.medianUs),
    aRatio: round2(a.medianUs / plain.medianUs),
    bUs: round2(b.medianUs - plain.medianUs),
    bRatio: round2(b.medianUs / plain.medianUs),
  };
}

const sign = (n: number): string => (n >= 0 ? `+${n}` : String(n));

/** The comparison as printed. */
export function variantCostLines(v: VariantCost): string[] {
  const t = (r: RoomTime): string => `${r.medianUs} us median (p90 ${r.p90Us})`;
  const lines = [
    `\nA/B variants of the waiting page (page_variants = a,b; the room's own time, one request of each in turn):`,
    `  a waiting page without a test ${t(v.plain)}`,
    `  with a test, variant a (the plain page) ${t(v.a)}: ${sign(v.aUs)} us, ${v.aRatio}x`,
    `  with a test, variant b (its own key) ${t(v.b)}: ${sign(v.bUs)} us, ${v.bRatio}x`,
  ];
  const unexpected = [v.plain, v.a, v.b].reduce((n, r) => n + (r.unexpected ?? 0) + r.untimed, 0);
  if (unexpected > 0)
    lines.push(
      `  WARNING: ${unexpected} answers were untimed or had another status than the waiting page: these figures measure something else`,
    );
  return lines;
}

if (isMain(import.meta.url)) {
  const origin = await startEchoOrigin();
  try {
    const cost = await variantCost(origin, BENCH_SETTINGS, new Uint8Array(randomBytes(64)), TEST_KID);
    for (const line of variantCostLines(cost)) console.log(line);
  } finally {
    await origin.close();
  }
}
