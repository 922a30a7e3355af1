// The edge's log sample (spec of issue 22, src/core/log-sample.ts `inLogSample`): FNV-1a 32-bit over
// the token id's characters, / 2^32, below the rate. The report asks it of each ticket, so that a
// ticket seen only because another one's line was in the sample is not counted at that one's weight.
// TODO(issue 22): import inLogSample from src/core/log-sample.ts once it is on main, and drop this copy.
export function inLogSample(tid: string, rate: number): boolean {
  if (rate >= 1) return true;
  let h = 0x811c9dc5;
  for (let i = 0; i < tid.length; i++) h = Math.imul(h ^ tid.charCodeAt(i), 0x01000193) >>> 0;
  return h / 2 ** 32 < rate;
}
