// What choosing the visitor's language costs a waiting visitor, in the room's own time (bench/room-time.ts):
// the same not-due wait token's waiting page on today's build and on the build before the room had
// languages ("before": the last commit without src/core/i18n, built from git in a temporary worktree),
// one request of each build and scenario in turn. On today's build: no Accept-Language (the room's
// default), a browser's usual header negotiated to French, and Arabic with an operator's override of
// three strings (two more store lookups and a right-to-left page), Thai (a language the build stores as
// text until a sandbox first answers in it); and each of them on the older build too (which answers in
// English what it does not offer), and an admitted visitor on both builds, who must pay nothing for the
// languages. BENCH_LANGUAGE_BASELINE=REV sets the older build (the bench of a change to the languages
// against the commit before it).
import type { EchoOrigin } from '../lib/echo-origin.js';
import { mintToken, windowBoundary } from '../lib/mint.js';
import type { Settings } from '../lib/room-host.js';
import { cookieName } from '../src/core/request/index.js';
import { buildFixture } from './build-fixture.js';
import { round2 } from './room-figures.js';
import { roomTimesAcross, type RoomTime } from './room-time.js';
import { buildAtCommit, git } from './worktree.js';

const IDENTITY_HEADER = 'x-bench-id';
/** The first file of the languages: the build before it is the baseline. */
const FIRST_LANGUAGE_FILE = 'src/core/i18n/catalogs/en-US.ts';

export interface LanguageCost {
  /** The baseline's commit, or why there is none (not a git checkout, say). */
  baseline: { commit: string } | { missing: string };
  before: RoomTime | null;
  english: RoomTime;
  negotiated: RoomTime;
  override: RoomTime;
  /** Thai: a language the build stores as one string until a sandbox first answers in it. */
  added: RoomTime;
  /** The same requests on the older build: English, and Thai (answered in English where it had no Thai). */
  englishBefore: RoomTime | null;
  addedBefore: RoomTime | null;
  /** An admitted visitor (the origin's answer: nothing to word), before and today. */
  admittedBefore: RoomTime | null;
  admitted: RoomTime;
  /** negotiated - before and negotiated / before, medians; null without a baseline. */
  negotiatedUs: number | null;
  negotiatedRatio: number | null;
}

/** The timed room built at the commit before the languages, in a temporary worktree (removed after). */
function baselineWasm(): { commit: string; wasm: string } | { missing: string } {
  const first = git(['log', '--diff-filter=A', '--format=%H', '--', FIRST_LANGUAGE_FILE])?.split('\n').pop();
  const commit = process.env.BENCH_LANGUAGE_BASELINE ?? (first ? git(['rev-parse', `${first}^`]) : null);
  if (!commit) return { missing: 'no git history to build the room before the languages from' };
  const built = buildAtCommit(
    commit,
    "const m = await import('./bench/build-fixture.ts'); console.log(JSON.stringify({ timed: await m.buildFixture('room-timed') }));",
  );
  return 'files' in built ? { commit: built.commit, wasm: built.files.timed! } : built;
}

export async function languageCost(
  origin: EchoOrigin,
  settings: Settings,
  keyBytes: Uint8Array,
  kid: string,
  requests = 1500,
): Promise<LanguageCost> {
  const d = Number(settings.wait_period_duration);
  const token = await mintToken(
    { key: keyBytes, kid, identity: 'header:bench-language' },
    { dec: 'wait', exp: windowBoundary(d, 1), room: 'default' },
  );
  // An allow token with over an allow period left: kept as it is, not renewed.
  const allow = await mintToken(
    { key: keyBytes, kid, identity: 'header:bench-language' },
    {
      dec: 'allow',
      exp: Math.floor(Date.now() / 1000) + 2 * Number(settings.allow_period_duration ?? 3600) + 600,
      room: 'default',
    },
  );
  const headers =
    (extra: Record<string, string> = {}) =>
    () => ({ [IDENTITY_HEADER]: 'bench-language', cookie: `${cookieName('default')}=${token}`, ...extra });
  const page = (s: number): boolean => s === 200;
  const scenarios = [
    { name: 'english', path: '/page', headers: headers(), expect: page },
    {
      name: 'negotiated',
      path: '/page',
      headers: headers({ 'accept-language': 'fr-CH,fr;q=0.9,de;q=0.8,en-US;q=0.7,en;q=0.6' }),
      expect: page,
    },
    { name: 'override', path: '/page', headers: headers({ 'accept-language': 'ar-EG,ar;q=0.9' }), expect: page },
    { name: 'added', path: '/page', headers: headers({ 'accept-language': 'th-TH,th;q=0.9,en;q=0.5' }), expect: page },
    {
      name: 'admitted',
      path: '/page',
      headers: () => ({
        [IDENTITY_HEADER]: 'bench-language',
        cookie: `${cookieName('default')}=${allow}`,
        'accept-language': 'fr-CH,fr;q=0.9',
      }),
      expect: page,
    },
  ];
  const overrides = { placeHeading: 'مكانك في الطابور', waitHeading: 'مدة الانتظار المتوقعة', checkNow: 'تحقق الآن' };
  const builds: Record<string, string> = { today: await buildFixture('room-timed') };
  const baseline = baselineWasm();
  if ('wasm' in baseline) builds.before = baseline.wasm;
  const times = await roomTimesAcross(
    origin,
    { ...settings, identity: `header:${IDENTITY_HEADER}`, hammer_limit: '0' },
    keyBytes,
    builds,
    scenarios,
    requests,
    {},
    { alternate: true, pages: { 'strings.ar-EG': JSON.stringify(overrides) } },
  );
  const today = times.today!;
  const before = times.before?.negotiated ?? null;
  return {
    baseline: 'wasm' in baseline ? { commit: baseline.commit } : baseline,
    before,
    english: today.english!,
    negotiated: today.negotiated!,
    override: today.override!,
    added: today.added!,
    englishBefore: times.before?.english ?? null,
    addedBefore: times.before?.added ?? null,
    admittedBefore: times.before?.admitted ?? null,
    admitted: today.admitted!,
    negotiatedUs: before ? round2(today.negotiated!.medianUs - before.medianUs) : null,
    negotiatedRatio: before ? round2(today.negotiated!.medianUs / before.medianUs) : null,
  };
}

/** The comparison as printed. */
export function languageCostLines(c: LanguageCost): string[] {
  const t = (r: RoomTime): string => `${r.medianUs} us median (p90 ${r.p90Us})`;
  const lines = [
    `\nthe visitor's language (a waiting visitor's page; the room's own time, one request of each build and scenario in turn):`,
  ];
  if (c.before && 'commit' in c.baseline) {
    lines.push(`  before the languages (${c.baseline.commit.slice(0, 7)}): ${t(c.before)}`);
    lines.push(
      `  today, negotiated to French from a browser's Accept-Language: ${t(c.negotiated)}: ${sign(c.negotiatedUs!)} us, ${c.negotiatedRatio}x`,
    );
  } else {
    lines.push(
      `  no build from before the languages (${'missing' in c.baseline ? c.baseline.missing : ''}): today's figures only`,
    );
    lines.push(`  today, negotiated to French from a browser's Accept-Language: ${t(c.negotiated)}`);
  }
  const against = (r: RoomTime, before: RoomTime | null): string =>
    before
      ? ` against ${t(before)} before: ${sign(round2(r.medianUs - before.medianUs))} us, ${round2(r.medianUs / before.medianUs)}x`
      : '';
  lines.push(
    `  today, no Accept-Language (the room's default, English): ${t(c.english)}${against(c.english, c.englishBefore)}`,
  );
  lines.push(`  today, Arabic with an operator's override of three strings (two more store lookups): ${t(c.override)}`);
  lines.push(
    `  today, Thai (stored as text until first used; the older build may answer English): ${t(c.added)}${against(c.added, c.addedBefore)}`,
  );
  const admittedAgainst = c.admittedBefore
    ? ` against ${t(c.admittedBefore)} before: ${round2(c.admitted.medianUs / c.admittedBefore.medianUs)}x`
    : '';
  lines.push(
    `  an admitted visitor (to the origin; nothing to word, no language chosen): ${t(c.admitted)}${admittedAgainst}`,
  );
  const unexpected = [
    c.before,
    c.english,
    c.negotiated,
    c.override,
    c.added,
    c.englishBefore,
    c.addedBefore,
    c.admittedBefore,
    c.admitted,
  ].reduce((n, r) => n + (r ? (r.unexpected ?? 0) + r.untimed : 0), 0);
  if (unexpected > 0)
    lines.push(
      `  WARNING: ${unexpected} answers were untimed or had another status than the waiting page: these figures measure something else`,
    );
  return lines;
}

const sign = (n: number): string => (n >= 0 ? `+${n}` : String(n));
