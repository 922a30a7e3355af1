// A room's A/B test of the waiting page on the report's page: each variant's visitors, the share who
// left before their turn and the share admitted, the median wait, each with its 95% interval, and each
// variant against the first in plain words (report/variants.ts makes the figures).
import type { RoomFigures } from './figures.js';
import { shareText, type VariantRow } from './variants.js';

const esc = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const num = (n: number): string => Math.round(n).toLocaleString('en-GB');
const secs = (s: number): string => (s < 10 ? `${s.toFixed(1)} s` : `${Math.round(s)} s`);

function waitText(row: VariantRow): string {
  const m = row.medianWait;
  if (m === null) return '–';
  return `${secs(m.seconds)} (${secs(m.interval.low)} to ${secs(m.interval.high)}; ${num(m.measured)} waits)`;
}

/** The section, or '' when the room ran no test (no line of it names a variant). */
export function variantsSection(room: RoomFigures): string {
  const v = room.variants;
  if (v === null) return '';
  const id = `variants-${room.id}`;
  const rows = v.rows
    .map(
      (r) =>
        `<tr><th scope="row">${esc(r.variant)}</th><td>${num(r.visitors)}</td><td>${esc(shareText(r.left))}</td><td>${esc(shareText(r.admitted))}</td><td>${esc(waitText(r))}</td></tr>`,
    )
    .join('\n');
  const fellBack = v.rows.filter((r) => r.fellBack > 0);
  const warning =
    fellBack.length === 0
      ? ''
      : `<p class="note">${fellBack.map((r) => `${num(r.fellBack)} visitors of variant ${esc(r.variant)}`).join(', ')} were shown the built-in page at least once because their variant's page was missing or broken (the line's <code>variantFallback</code>; the edge's diagnostics name the store key): the comparison is weaker for it.</p>`;
  const verdicts =
    v.comparisons.length === 0
      ? `<p>Only variant ${esc(v.rows[0]!.variant)} was shown: nothing to compare it with.</p>`
      : v.comparisons
          .map((c) => `<ul class="verdict">${c.verdict.map((s) => `<li>${esc(s)}</li>`).join('')}</ul>`)
          .join('\n');
  return `<h3 id="${esc(id)}">The waiting page's variants</h3>
<div class="table"><table><caption>Room ${esc(room.id)}: each variant's visitors (95% intervals in brackets)</caption><thead><tr><th scope="col">variant</th><th scope="col">visitors</th><th scope="col">left before their turn</th><th scope="col">admitted</th><th scope="col">median wait</th></tr></thead><tbody>
${rows}
</tbody></table></div>
${verdicts}
${warning}
<p class="method">A visitor (a ticket chain, as for the waits) counts in the variant of the first line of theirs that names one, once; one still waiting when the log ends counts as neither left nor admitted. Intervals are 95%: Wilson's for a share, Newcombe's hybrid score for a difference of shares, the distribution-free order-statistic interval for a median and Bonett and Price's for a difference of medians (waits of the admitted only). A difference is "shown" only when its interval leaves out zero; with more than two variants each is compared with ${esc(v.rows[0]!.variant)} on its own, so one such difference in several may be chance.</p>`;
}
