// A followed file (`--source file:PATH`) as an operator meets it: it gives the lines written after the
// controller started, in order and whole, and keeps following when the file is truncated or replaced
// (log rotation).
import { appendFile, mkdtemp, rename, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fileSource } from '../../../control/sources/file-source.js';
import type { Source } from '../../../control/sources/source.js';
import { sleep, until } from './wait.js';

let dir: string;
const sources: Source[] = [];
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'wr-sources-'));
});
afterEach(async () => {
  for (const source of sources.splice(0)) source.stop();
  await rm(dir, { recursive: true, force: true });
});

/** A followed file and the lines it has given so far; resolves once the first poll has read the file. */
async function follow(file: string): Promise<{ lines: string[]; source: Source }> {
  const lines: string[] = [];
  const source = fileSource(file, (line) => lines.push(line), 10);
  sources.push(source);
  await sleep(60);
  return { lines, source };
}

describe('a followed file (file:PATH)', () => {
  it('from its start, when resuming: gives the lines written while the controller was down too', async () => {
    const file = path.join(dir, 'resumed.log');
    await writeFile(file, 'while down 1\nwhile down 2\n');
    const lines: string[] = [];
    sources.push(fileSource(file, (line) => lines.push(line), 10, true));
    await appendFile(file, 'new 1\n');
    await until(() => lines.length === 3, 'three lines');
    expect(lines).toEqual(['while down 1', 'while down 2', 'new 1']);
  });

  it('gives the lines appended after it started, in order, and not the ones already there', async () => {
    const file = path.join(dir, 'room.log');
    await writeFile(file, 'old 1\nold 2\n');
    const { lines } = await follow(file);
    await appendFile(file, 'new 1\nnew 2\n');
    await appendFile(file, 'new 3\n');
    await until(() => lines.length === 3, 'three lines');
    expect(lines).toEqual(['new 1', 'new 2', 'new 3']);
  });

  it('holds a partial line until its end is written', async () => {
    const file = path.join(dir, 'room.log');
    await writeFile(file, '');
    const { lines } = await follow(file);
    await appendFile(file, '{"wr":1,"decis');
    await sleep(80);
    expect(lines).toEqual([]);
    await appendFile(file, 'ion":"wait"}\nnext');
    await until(() => lines.length === 1, 'the completed line');
    expect(lines).toEqual(['{"wr":1,"decision":"wait"}']);
  });

  it('reads a truncated file again from its start', async () => {
    const file = path.join(dir, 'room.log');
    await writeFile(file, 'before the start\n');
    const { lines } = await follow(file);
    await appendFile(file, 'a long line written before the rotation\n');
    await until(() => lines.length === 1, 'the line before the truncation');
    await truncate(file, 0);
    await sleep(60);
    await appendFile(file, 'after\n');
    await until(() => lines.length === 2, 'the line after the truncation');
    expect(lines).toEqual(['a long line written before the rotation', 'after']);
  });

  it("follows a file replaced under its name, from the new file's start", async () => {
    const file = path.join(dir, 'room.log');
    await writeFile(file, '');
    const { lines } = await follow(file);
    await appendFile(file, 'in the old file\n');
    await until(() => lines.length === 1, "the old file's line");
    await rename(file, path.join(dir, 'room.log.1'));
    await writeFile(path.join(dir, 'next.log'), 'first in the new file\nsecond in the new file\n');
    await rename(path.join(dir, 'next.log'), file);
    await until(() => lines.length === 3, "the new file's lines");
    expect(lines).toEqual(['in the old file', 'first in the new file', 'second in the new file']);
  });

  it('says it cannot read a file that is gone, and clears that once the file is back', async () => {
    const file = path.join(dir, 'room.log');
    await writeFile(file, '');
    const { lines, source } = await follow(file);
    await rm(file);
    await until(() => source.error !== null, 'the error');
    expect(source.error).toMatch(/^cannot read .*room\.log/);
    expect(source.dead).toBe(false);
    await writeFile(file, 'back\n');
    await until(() => lines.length === 1, 'the line of the file that came back');
    expect(source.error).toBeNull();
  });

  it('gives nothing more once stopped', async () => {
    const file = path.join(dir, 'room.log');
    await writeFile(file, '');
    const { lines, source } = await follow(file);
    source.stop();
    await appendFile(file, 'too late\n');
    await sleep(80);
    expect(lines).toEqual([]);
  });
});
