// The report's words for several rooms on one service: each room against its own target, the
// scheduled event room by room, and the cross-room check. Each room's own section follows (report.ts).
import type { ScenarioFigures } from './figures.js';

const n0 = (x: number | null | undefined): string =>
  x === null || x === undefined ? '–' : Math.round(x).toLocaleString('en-US');
const signed = (x: number | null): string => (x === null ? '–' : `${x >= 0 ? '+' : ''}${(100 * x).toFixed(1)}%`);

/** The scenario's own section: what it is, the rooms side by side, the event, the check. */
export function roomsSection(f: ScenarioFigures): string[] {
  const r = f.rooms;
  if (r === null) return [];
  const lines = [`## ${f.title} (\`${f.name}\`)`, '', f.summary, ''];
  lines.push(`Routing (as \`npm run tune\` describes it): ${r.routing.map((l) => `\`${l}\``).join('; ')}.`, '');
  lines.push(
    '| room | target a minute | visitors | admitted | judged minutes within ±10% of the target | judged minutes, mean admissions | worst judged minute |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...r.rooms.map(({ id, target, figures }) => {
      const c = figures.control;
      const judged = c === null ? [] : c.minutes.filter((m) => m.judged);
      const mean = judged.length === 0 ? null : judged.reduce((s, m) => s + m.admissions, 0) / judged.length;
      return `| ${id} | ${n0(target)} | ${n0(figures.actors)} | ${n0(figures.admitted)} | ${c === null || c.judged === 0 ? '–' : `${c.withinTenPercent} of ${c.judged}`} | ${mean === null ? '–' : `${mean.toFixed(1)} (${signed(target === null ? null : mean / target - 1)})`} | ${signed(c?.worstError ?? null)} |`;
    }),
    '',
  );
  const e = r.event;
  if (e !== null) {
    const minute = e.startMs / 60_000;
    lines.push(
      `- The scheduled sale is the ${e.room}'s alone: before its start at minute ${minute}, the ${e.room} answered ${n0(e.countdownAnswers)} countdown pages and admitted ${n0(e.admittedBefore)}; ${e.others.map((o) => `the ${o.room} answered ${n0(o.countdownAnswers)} countdown pages and admitted ${n0(o.admittedBefore)} (its own crowd, by its own settings)`).join('; ')}.`,
    );
  }
  const x = r.crossRoom;
  const answered = Object.entries(x.triedReasons)
    .sort((a, b) => b[1] - a[1])
    .map(([reason, n]) => `\`${reason}\` ${n0(n)}`)
    .join(', ');
  lines.push(
    `- Cross-room check, kept beside the rooms from what each browser sent and each room answered: ${n0(x.originRequests)} requests reached a room's pages; ${x.violations} of them without that room's own admission (routed elsewhere, let in on another room's token, or never given an allow token by that room)${x.examples.length > 0 ? `: ${x.examples.join('; ')}` : ''}.`,
    `- ${n0(x.triedOtherRoom)} visitors presented another room's token as a room's cookie (${n0(x.triedRequests)} requests, answered ${answered || 'nothing'}); ${x.triedAdmitted} were let in on it${(x.triedReasons.allow_all ?? 0) > 0 ? ' (`allow_all`: the room was still open, and let them in on an allow token of its own, as it let everyone)' : ''}. ${x.linesWithoutRoom} decision lines named no room.`,
    '',
  );
  return lines;
}
