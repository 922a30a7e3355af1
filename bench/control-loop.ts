// `npm run bench:control`: the control model in a closed loop with the room's real decide(), before the
// simulator's multi-POP scenarios exist. One POP; each setting the model writes reaches it after 5-15 s
// (DELAY=15), its decision lines reach the model after 3 s; visitors follow Retry-After plus the page's
// jitter and never give up. Prints admissions per minute against the target, the busiest 10 s after the
// first two minutes, and the waiting page's median estimate against the waits lived.
//   N=10000 MIN=25 TARGET=600 npm run bench:control        a flash crowd: N in the first minute
//   SHAPE=steady N=6000 MIN=20 TARGET=240 npm run bench:control   N spread over 20 minutes
import { createHash } from 'node:crypto';
import { parseConfig } from '../src/core/settings/index.js';
import { decide } from '../src/core/decision/index.js';
import { createKeyRing } from '../src/core/tokens/index.js';
import { decisionLine } from '../src/core/log/index.js';
import { createControlModel } from '../control/model/index.js';
import { answerFacts } from '../src/core/answer/index.js';
import { median } from '../lib/quantiles.js';
import { takesNoArguments } from '../lib/cli.js';

takesNoArguments(
  'npm run bench:control',
  `usage: npm run bench:control   (prints admissions a minute against the target; writes nothing)
  N=10000 MIN=25 TARGET=600 DELAY=15   visitors, minutes, target a minute, seconds a setting takes to reach the POP
  SHAPE=steady                         the N visitors spread over 20 minutes instead of the first minute`,
);

const EPOCH = Date.UTC(2026, 0, 1);
const key = createHash('sha512').update('k').digest('base64');
const keys = createKeyRing(
  async () => key,
  () => {},
);
const central: Record<string, string> = {
  allow_percentage: '100',
  wait_period_duration: '30',
  active_key: 'k',
  log_endpoint: 'x',
  allow_period_duration: '600',
  new_users_per_minute: process.env.TARGET ?? '600',
};
const DELAY = Number(process.env.DELAY ?? 15) * 1000;
const LOGDELAY = 3000;
let edge = { ...central };
const pendingConfig: { at: number; values: Record<string, string> }[] = [];
const model = createControlModel();
const lines: { at: number; text: string }[] = [];
type V = {
  p50?: number;
  q?: number;
  id: number;
  jar: string | null;
  next: number;
  admitted: number | null;
  arrive: number;
  leave: number;
};
const N = Number(process.env.N ?? 10000);
const visitors: V[] = [];
let seed = 1;
const rnd = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
for (let i = 0; i < N; i++) {
  const arrive = process.env.SHAPE === 'steady' ? rnd() * 20 * 60000 : rnd() * 60000;
  visitors.push({ id: i, jar: null, next: arrive, admitted: null, arrive, leave: arrive + 60000 * (2 + 20 * rnd()) });
}
const admissions: number[] = [];
const END = Number(process.env.MIN ?? 25) * 60000;
let cfg = parseConfig((k) => edge[k] ?? null).config;
for (let t = 0; t < END; t += 100) {
  // propagate config
  while (pendingConfig.length && pendingConfig[0]!.at <= t) {
    edge = { ...edge, ...pendingConfig.shift()!.values };
    for (const k of Object.keys(edge)) if (edge[k] === '') delete edge[k];
    cfg = parseConfig((k) => edge[k] ?? null).config;
  }
  for (const v of visitors) {
    if (v.admitted !== null || v.next > t) continue;
    if (t > v.leave) {
      v.admitted = -1;
      continue;
    }
    const r = await decide({
      config: cfg,
      keys,
      identity: `ip:${v.id}`,
      tokens: v.jar ? [v.jar] : [],
      nowMs: EPOCH + t,
      successors: true,
    });
    lines.push({
      at: t + LOGDELAY,
      text: decisionLine({
        nowMs: EPOCH + t,
        pop: 'P',
        room: cfg.room,
        rule: null,
        waitPeriodSeconds: cfg.waitPeriodSeconds,
        decision: r.decision,
        outcome: r.outcome,
        reason: r.reason,
        kid: r.kid,
        method: 'GET',
        path: '/',
        identity: 'ip',
        status: 200,
        result: r,
      }),
    });
    if (r.setToken) v.jar = r.setToken;
    if (r.outcome === 'origin') {
      v.admitted = t;
      admissions.push(t);
      continue;
    }
    // What the page says (answer.ts): its estimate on the first waiting page, and its Retry-After.
    const facts = answerFacts(cfg, r, EPOCH + t, () => 0);
    if (v.p50 === undefined && r.waitDueSec !== null && facts.estimate) {
      v.p50 = facts.estimate.p50;
      v.q = t;
    }
    v.next = t + facts.retryAfterSeconds * 1000 + rnd() * 2000;
  }
  if (t % 1000 === 0) {
    while (lines.length && lines[0]!.at <= t) {
      const o = JSON.parse(lines.shift()!.text);
      model.observe({
        tsMs: Date.parse(o.ts),
        pop: o.pop,
        room: o.room ?? null,
        rule: o.rule ?? null,
        win: o.win,
        period: o.period,
        decision: o.decision,
        outcome: o.outcome,
        reason: o.reason,
        tid: o.tid,
        exp: o.exp,
        dec: o.dec,
        newTid: o.newTid,
        newExp: o.newExp,
        newDec: o.newDec,
        nextTid: o.nextTid,
        pct: o.pct,
        pos: o.pos ?? null,
        weight: o.w ?? 1,
      });
    }
    model.settings(central, EPOCH + t);
    const w = model.plan(EPOCH + t, { holding: false, writeIntervalMs: 0 });
    if (w) {
      Object.assign(central, w);
      for (const k of Object.keys(central)) if (central[k] === '') delete central[k];
      pendingConfig.push({ at: t + DELAY * (0.33 + 0.67 * rnd()), values: w });
      model.written(w, true, EPOCH + t);
      if (process.env.V) console.log(Math.round(t / 1000), JSON.stringify(w).slice(0, 150));
    }
  }
}
const perMin = new Map<number, number>();
for (const a of admissions) perMin.set(Math.floor(a / 60000), (perMin.get(Math.floor(a / 60000)) ?? 0) + 1);
console.log('per minute:', [...Array(END / 60000).keys()].map((m) => perMin.get(m) ?? 0).join(' '));
let best = 0;
for (let s = 0; s < END / 1000; s++) {
  const n = admissions.filter((a) => a >= s * 1000 && a < s * 1000 + 10000).length;
  if (s >= 120 && n > best) best = n;
}
console.log('busiest 10s after 2 min:', best, 'target share', Number(central.new_users_per_minute) / 6);
console.log(model.snapshot(EPOCH + END).why);

const adm = visitors.filter((v) => v.admitted !== null && v.admitted >= 0 && v.p50 !== undefined);
const waits = adm.map((v) => (v.admitted! - v.q!) / 1000);
const preds = adm.map((v) => v.p50!);
console.log(
  'observed median wait',
  median(waits),
  'predicted median',
  median(preds),
  'within own p50',
  (adm.filter((v) => (v.admitted! - v.q!) / 1000 <= v.p50!).length / adm.length).toFixed(3),
);
const byArr = new Map<number, { p: number[]; w: number[] }>();
for (const v of adm) {
  const k = Math.floor(v.q! / 10000);
  const b = byArr.get(k) ?? { p: [], w: [] };
  b.p.push(v.p50!);
  b.w.push((v.admitted! - v.q!) / 1000);
  byArr.set(k, b);
}
for (const [k, b] of [...byArr].sort((a, b) => a[0] - b[0]).slice(0, 12))
  console.log(`arrive ${k * 10}s n=${b.p.length} predicted p50 ${median(b.p)} observed median ${median(b.w)}`);
