// `--source stdin`: it gives each line as it comes, and ends the source when the input closes.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { stdinSource } from '../../../control/sources/stdin-source.js';
import { until } from './wait.js';

describe('stdin', () => {
  it('gives each line as it comes, and is dead once the input closes', async () => {
    const input = new PassThrough();
    const lines: string[] = [];
    const source = stdinSource((line) => lines.push(line), input);
    input.write('one\r\ntw');
    input.write('o\nthree');
    input.end();
    await until(() => source.dead, 'the end of the input');
    expect(lines).toEqual(['one', 'two', 'three']);
    expect(source.error).toMatch(/stdin closed/);
  });
});
