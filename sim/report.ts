// report.md (charts embedded as SVG files next to it) and figures.json.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { botHeadline, botSection } from './bot-report.js';
import { chartsFor, toSvg } from './charts.js';
import { controlHeadline, controlSection } from './control-report.js';
import { eventHeadline, eventSection } from './event-report.js';
import { laneSection } from './lane-report.js';
import { originHeadline, originSection } from './origin-report.js';
import { roomsSection } from './rooms-report.js';
import type { GroupFigures, ScenarioFigures } from './figures.js';
import type { Interval } from './stats.js';

const n0 = (x: number | null | undefined): string =>
  x === null || x === undefined ? '–' : Math.round(x).toLocaleString('en-US');
const n2 = (x: number | null | undefined): string => (x === null || x === undefined ? '–' : x.toFixed(2));
const pct = (x: number | null | undefined): string =>
  x === null || x === undefined ? '–' : `${(100 * x).toFixed(1)}%`;
const ci = (i: Interval | null, f: (x: number) => string = n2): string =>
  i === null ? '–' : `${f(i.value)} (${f(i.low)}–${f(i.high)})`;

const groupLabel: Record<string, string> = {
  honest: 'honest visitor (one device, follows the page)',
  devices5: '5 devices behind one identity, arriving at different moments',
  clearer: 'clears cookies before every visit',
  refresher: 'refreshes every second',
  friend: 'friend on another identity given an admitted allow token',
  twojars: 'two cookie jars used in turn',
  holder: 'the token holders themselves (honest)',
  hoarder: 'keeps a fresh token from every window, presents them all after the raise',
};

function headline(all: ScenarioFigures[]): string {
  const rows = all.map((f) => {
    const s = f.smoothness;
    const w = f.waits[0];
    return `| ${f.name} | ${n0(f.actors)} | ${n0(f.admitted)} | ${n0(f.abandoned)} | ${s ? s.peak : '–'} | ${n2(s?.mean)} | ${n2(s?.peakToMean)} | ${n2(s?.peakToLocalMean)} | ${pct(s?.boundaryShare)} | ${w ? `${n0(w.observed.p50)} / ${n0(w.predicted.p50)}` : '–'} | ${n2(f.spearman)} |`;
  });
  return [
    '| scenario | visitors | admitted | gave up | peak adm/s | mean adm/s | peak/mean | burstiest second / its window | admissions in first 10% of windows | median wait observed / predicted (s) | Spearman arrival vs admission |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows,
  ].join('\n');
}

function groupsTable(groups: GroupFigures[], horizon: number | null, label: string | null): string {
  return [
    `| who | identities | admitted ${label} | chance (95% CI) | relative to honest (95% CI) | relative, within ${horizon} windows' seconds | most tokens drawn by one identity in one window | most draws beyond an honest visitor's | handed-over token reached origin |`,
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...groups.map(
      (g) =>
        `| ${groupLabel[g.group] ?? g.group} | ${n0(g.actors)} | ${n0(g.admittedInHorizon)} | ${ci(g.chance, pct)} | ${ci(g.ratio)} | ${ci(g.ratioBySeconds)} | ${g.maxDrawsPerWindow} | ${g.maxExtraDraws} | ${g.handoverAdmitted === null ? '' : `${g.handoverAdmitted} of ${g.actors}`} |`,
    ),
  ].join('\n');
}

function section(f: ScenarioFigures, charts: string[]): string {
  const lines = [`## ${f.title} (\`${f.name}\`)`, '', f.summary, ''];
  lines.push(
    `Settings: ${Object.entries(f.settings)
      .map(([k, v]) => `\`${k}=${v}\``)
      .join(', ')}${f.changes.map((c) => `; at minute ${c.atMs / 60_000}: \`${c.key}=${c.value}\``).join('')}.`,
    '',
    `- ${n0(f.actors)} visitors, ${n0(f.admitted)} admitted, ${n0(f.abandoned)} gave up, ${n0(f.stillWaiting)} still waiting at the end; ${n0(f.drawsWon)} draws won of ${n0(f.drawsWon + f.drawsLost)} (${pct(f.drawsWon / Math.max(1, f.drawsWon + f.drawsLost))}); ${n0(f.renewals)} allow-token renewals.`,
  );
  const s = f.smoothness;
  if (s) {
    lines.push(
      `- Admissions per second: peak ${s.peak} (second ${s.peakSecond}, ${s.peakOffsetInWindow} s after a window boundary), mean ${n2(s.mean)}, peak/mean ${n2(s.peakToMean)}; burstiest second against its own window: ${s.peakToLocalMean === null ? '– (under 5 admissions/s)' : `${n2(s.peakToLocalMean)}x (second ${s.burstiestSecond})`}; ${pct(s.boundaryShare)} of admissions fell in the first tenth of a window (10% if spread evenly).`,
    );
  }
  for (const w of f.waits) {
    lines.push(
      `- ${w.allowPercentage === null ? 'Queued under the controller' : `Queued at allow_percentage ${w.allowPercentage}`} (${n0(w.visitors)} visitors): wait percentiles 25/50/75 observed ${n0(w.observed.p25)} / ${n0(w.observed.p50)} / ${n0(w.observed.p75)} s, the page predicted ${n0(w.predicted.p25)} / ${n0(w.predicted.p50)} / ${n0(w.predicted.p75)} s (median off by ${pct(w.medianError)}); admitted within their own predicted 25th/50th/75th: ${pct(w.coverage.p25)} / ${pct(w.coverage.p50)} / ${pct(w.coverage.p75)}.`,
    );
  }
  if (f.lateDrawShare !== null) {
    lines.push(
      `- ${pct(f.lateDrawShare)} of honest visitors' draws came a window late (their return overshot the window, so that window's draw was skipped).`,
    );
  }
  const near = Object.entries(f.drawsNearBoundary);
  if (f.groups.length > 0 && near.length > 0) {
    lines.push(
      `- Draws in the first tenth of their window: ${near.map(([g, v]) => `${g} ${pct(v)}`).join(', ')} (page jitter spreads them: 10%).`,
    );
  }
  if (f.spearman !== null)
    lines.push(`- Spearman correlation of arrival order and admission order: ${n2(f.spearman)}.`);
  if (f.spearmanBeforeChange !== null) {
    lines.push(
      `- Among visitors who arrived before minute ${f.changes[0]!.atMs / 60_000}: ${n2(f.spearmanBeforeChange)} (0 = arriving early bought nothing).`,
    );
  }
  for (const p of f.phases) {
    lines.push(
      `- ${p.label} (allow_percentage ${p.allowPercentage}): ${n2(p.admissionsPerSecond)} admissions/s, ${pct(p.drawWinShare)} of draws won.`,
    );
  }
  lines.push(...controlSection(f));
  lines.push(...originSection(f));
  lines.push(...eventSection(f));
  lines.push(...botSection(f));
  lines.push(...laneSection(f));
  if (f.groups.length > 0) lines.push('', groupsTable(f.groups, f.horizonWindows, f.compareLabel));
  lines.push('', ...charts.map((c) => `![${c}](${c})`), '');
  lines.push(`<sub>${n0(f.decisions)} decide() calls in ${(f.elapsedMs / 1000).toFixed(1)} s.</sub>`, '');
  return lines.join('\n');
}

export async function writeReport(outDir: string, seed: string, all: ScenarioFigures[]): Promise<string[]> {
  await mkdir(outDir, { recursive: true });
  const written: string[] = [];
  const sections: string[] = [];
  // A scenario of several rooms: its own section, then each room's as a room alone's.
  const flat = all.flatMap((f) => (f.rooms === null ? [f] : f.rooms.rooms.map((r) => r.figures)));
  for (const f of all) {
    if (f.rooms !== null) sections.push(roomsSection(f).join('\n'));
    for (const one of f.rooms === null ? [f] : f.rooms.rooms.map((r) => r.figures)) {
      const charts = chartsFor(one);
      for (const [file, spec] of Object.entries(charts)) {
        await writeFile(join(outDir, file), await toSvg(spec));
        written.push(file);
      }
      sections.push(section(one, Object.keys(charts)));
    }
  }
  const md = [
    '# Waiting room simulation',
    '',
    `Seed \`${seed}\`. Every request of every virtual visitor went through the room's real decide() (HS512 tokens, identity hash, seeded draw); time is virtual.`,
    '',
    headline(flat.filter((f) => f.control === null)),
    '',
    controlHeadline(flat),
    '',
    originHeadline(flat),
    '',
    eventHeadline(flat),
    '',
    botHeadline(flat),
    '',
    ...sections,
  ].join('\n');
  await writeFile(join(outDir, 'report.md'), md);
  await writeFile(join(outDir, 'figures.json'), JSON.stringify({ seed, scenarios: all }, null, 1));
  return ['report.md', 'figures.json', ...written];
}
