// Reads the files line by line (readline over a stream), so a log of a gigabyte takes the memory of
// its per-minute figures, not of its text.
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { LogAggregator } from './aggregate.js';
import type { LogFigures } from './log-figures.js';
import { journalLine, newJournal, type JournalFigures } from './journal.js';

async function eachLine(path: string, fn: (text: string) => void): Promise<void> {
  const stream = createReadStream(path, { encoding: 'utf8' });
  const opened = new Promise<void>((resolve, reject) => {
    stream.once('open', () => resolve());
    stream.once('error', reject);
  });
  await opened.catch((error: NodeJS.ErrnoException) => {
    throw new Error(`cannot read ${path}: ${error.code === 'ENOENT' ? 'no such file' : error.message}`);
  });
  const lines = createInterface({ input: stream, crlfDelay: Infinity });
  for await (const text of lines) fn(text);
}

export async function readDecisionLog(
  path: string,
  options: { room?: string; nowMs?: number } = {},
): Promise<LogFigures> {
  const aggregator = new LogAggregator(options);
  await eachLine(path, (text) => aggregator.line(text));
  return aggregator.finish();
}

export async function readJournal(path: string): Promise<JournalFigures> {
  const journal = newJournal();
  await eachLine(path, (text) => void journalLine(journal, text));
  return journal;
}
