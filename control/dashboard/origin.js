// The dashboard's origin and autopilot (docs/control/auto.md), loaded by page.html before its own
// script, whose chart(), num(), pct(), hhmm() and tidy() it uses when drawOrigin is called: the
// origin's time to headers and error share a minute (ModelSnapshot.minutes[].origin) against the
// objective while the room is in target_mode=auto, the rate the autopilot chose beside admissions, and
// a line of its state (ModelSnapshot.pace, null in manual mode).

/** An error share as people read it: 0.4%, 12%. */
const sharePct = (s) => (s === null || s === undefined ? '–' : pct(Math.round(s * 1000) / 10));
/** A time in ms with separators: 1,234 ms. */
const msText = (v) => (v === null || v === undefined ? '–' : `${num(Math.round(v))} ms`);

/** The autopilot's line: its state and why, the rate it chose between its bounds, and its last reading. */
function paceLine(pace) {
  const line = document.getElementById('pace');
  line.hidden = pace === null || pace === undefined;
  if (line.hidden) return;
  const o = pace.objective;
  const reading =
    pace.requests === 0
      ? 'no request to the origin read yet'
      : `p${o.percentile} ${msText(pace.latencyMs)} (objective ${msText(o.latencyMs)}), errors ${sharePct(pace.errorShare)} (objective ${sharePct(o.errorShare)}) over ${num(pace.requests)} requests`;
  line.className = `state pace ${pace.state}`;
  line.textContent = `Autopilot (target_mode=auto), ${pace.state}: ${tidy(pace.why.replace(/^\w+: /, ''))}. Rate chosen: ${num(Math.round(pace.ratePerMinute))} new visitors a minute (floor ${num(Math.round(pace.floorPerMinute))}, ceiling ${num(pace.ceilingPerMinute)}). The origin lately: ${reading}.`;
}

/**
 * The origin's two charts and their figures for the named minute (`full`) and the one so far
 * (`thisMinute`); `named` is "Minute 17:05". The objective is drawn only while the room is in auto.
 */
function drawOrigin(m, mins, full, thisMinute, named) {
  const pace = m.pace ?? null;
  paceLine(pace);
  const o = pace === null ? null : pace.objective;
  const p = `p${o === null ? 90 : o.percentile}`;
  document.getElementById('origin-p').textContent = p;
  const origin = (point) => point?.origin ?? { requests: 0, latencyMs: null, errorShare: null };
  chart('origin-latency', mins, [
    { color: '--orange', points: mins.map((pt) => origin(pt).latencyMs) },
    { color: '--red', dashed: true, points: mins.map(() => (o === null ? null : o.latencyMs)) },
  ]);
  chart(
    'origin-errors',
    mins,
    [
      {
        color: '--orange',
        points: mins.map((pt) => (origin(pt).errorShare === null ? null : origin(pt).errorShare * 100)),
      },
      { color: '--red', dashed: true, points: mins.map(() => (o === null ? null : o.errorShare * 100)) },
    ],
    {
      unit: '%',
      max: Math.max(1, ...mins.map((pt) => (origin(pt).errorShare ?? 0) * 100), o === null ? 0 : o.errorShare * 200),
    },
  );
  const f = origin(full);
  const objective = (text) => (o === null ? '' : ` (objective ${text})`);
  const manual = o === null ? ' No objective: the room is not in target_mode=auto.' : '';
  const soFar = (fn) =>
    thisMinute && origin(thisMinute).requests > 0
      ? ` ${hhmm(thisMinute.startMs)} so far: ${fn(origin(thisMinute))}.`
      : '';
  document.getElementById('origin-latency-text').textContent =
    mins.length === 0 || f.requests === 0
      ? `${mins.length === 0 ? 'No decision line counted yet' : `${named}: no request to the origin counted`}.${soFar((x) => `${p} ${msText(x.latencyMs)}`)}${manual}`
      : `${named}: ${p} ${msText(f.latencyMs)}${o === null ? '' : objective(msText(o.latencyMs))} over ${num(f.requests)} requests.${soFar((x) => `${p} ${msText(x.latencyMs)}`)}${manual}`;
  document.getElementById('origin-errors-text').textContent =
    mins.length === 0 || f.requests === 0
      ? `${mins.length === 0 ? 'No decision line counted yet' : `${named}: no request to the origin counted`}.${soFar((x) => `${sharePct(x.errorShare)} errors`)}`
      : `${named}: ${sharePct(f.errorShare)} of ${num(f.requests)} requests failed${objective(sharePct(o?.errorShare))}.${soFar((x) => `${sharePct(x.errorShare)} errors`)}`;
}

/** In auto, the admissions chart's extra series: the rate chosen each minute (the minute's target). */
function rateSeries(m, mins) {
  const auto = m.pace !== null && m.pace !== undefined;
  document.getElementById('rate-key').hidden = !auto;
  document.getElementById('target-key').textContent = auto ? 'ceiling' : 'target';
  return auto ? [{ color: '--green', points: mins.map((pt) => pt.target) }] : [];
}

// What page.html's script calls (a classic script's functions are globals already: this names them).
Object.assign(globalThis, { drawOrigin, rateSeries });
