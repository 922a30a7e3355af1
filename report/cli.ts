// `npm run report -- LOGFILE [--journal FILE] [--out FILE] [--room ID] [--target N]`: a decision
// log (and the controller's journal) into one self-contained HTML page with charts (docs/report.md).
import { writeFile } from 'node:fs/promises';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { isMain, runTool, UsageError } from '../lib/cli.js';
import { toSvg } from '../sim/charts.js';
import { ROOM_ID } from '../src/core/settings/index.js';
import { reportCharts } from './charts.js';
import { reportFigures } from './figures.js';
import { reportPage } from './page.js';
import { readDecisionLog, readJournal } from './read.js';

export const USAGE = `usage: npm run report -- LOGFILE [--journal FILE] [--out FILE] [--room ID] [--target N]

  LOGFILE          decision lines: the room's output (npm start > room.log), the file the
                   controller follows, or a saved \`fastly log-tail\` (other output is skipped and counted)
  --journal FILE   the controller's journal (its own --journal FILE): writes and API calls
  --out FILE       where the page goes (default: beside the log, room.log -> room.report.html)
  --room ID        only this room's lines (default: every room, one section each)
  --target N       admissions a minute to draw against, when the journal does not say`;

/** The page's default place: beside the log it was made from (room.log -> room.report.html), not the working directory. */
export function defaultOut(logPath: string): string {
  const name = basename(logPath);
  const stem = extname(name) === '' ? name : name.slice(0, -extname(name).length);
  return join(dirname(logPath), `${stem}.report.html`);
}

export async function main(argv: string[], log: (text: string) => void = console.log): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      journal: { type: 'string' },
      out: { type: 'string' },
      room: { type: 'string' },
      target: { type: 'string' },
    },
  });
  if (positionals.length !== 1)
    throw new UsageError(
      positionals.length === 0 ? 'give the decision log file' : `one log file, not ${positionals.length}`,
    );
  if (values.room !== undefined && !ROOM_ID.test(values.room))
    throw new UsageError(`--room: "${values.room}" is not a room id`);
  const target = values.target === undefined ? undefined : Number(values.target);
  if (target !== undefined && !(Number.isFinite(target) && target >= 0))
    throw new UsageError(`--target: "${values.target}" is not a number of admissions a minute`);
  const logPath = positionals[0]!;
  const out = resolve(values.out ?? defaultOut(logPath));
  const log$ = await readDecisionLog(logPath, values.room === undefined ? {} : { room: values.room });
  const journal = values.journal === undefined ? null : await readJournal(values.journal);
  const figures = reportFigures(log$, journal, target === undefined ? {} : { target });
  const svgs = new Map<string, { wide: string; narrow: string }>();
  const narrow = new Map(reportCharts(figures, { narrow: true }).map((c) => [c.id, c.spec]));
  for (const chart of reportCharts(figures, { narrow: false }))
    svgs.set(chart.id, { wide: await toSvg(chart.spec), narrow: await toSvg(narrow.get(chart.id)!) });
  const page = reportPage({
    figures,
    svgs,
    logName: basename(logPath),
    journalName: values.journal === undefined ? null : basename(values.journal),
    room: values.room ?? null,
  });
  await writeFile(out, page);
  const l = figures.lines;
  log(
    `report: ${out} (${Math.round(page.length / 1024)} KB): ${l.used} decision lines of ${l.read}; skipped ${l.foreign} not the room's and ${l.bad} unusable${figures.rooms.length === 0 ? '; no decision line found, the page says so' : ''}`,
  );
  return 0;
}

if (isMain(import.meta.url)) runTool('npm run report', USAGE, (argv) => main(argv));
