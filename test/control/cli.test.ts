// `npm run control` as an operator meets it: on a terminal with nothing piped in it says what it
// reads instead of waiting silently, and fed `npm start`'s output it passes the room's banner and
// errors through while it takes the decision lines.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../control/cli.js';
import { repoRoot } from '../../lib/paths.js';
import { admittedLine } from './lines.js';

const dir = mkdtempSync(join(tmpdir(), 'wr-control-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const config = join(dir, 'config.json');
writeFileSync(config, JSON.stringify({ allow_percentage: '50' }));

describe('npm run control', () => {
  it('on a terminal with no source, says what it expects instead of waiting', async () => {
    const saved = Object.getOwnPropertyDescriptor(process.stdin, 'isTTY');
    Object.defineProperty(process.stdin, 'isTTY', { value: true, configurable: true });
    try {
      const error = await main(['--file', config, '--dashboard-port', '0']).then(
        () => null,
        (e: Error) => e,
      );
      expect(error?.message).toContain('nothing is piped into it');
      expect(error?.message).toContain('npm start -- --control');
      expect(error?.message).toContain('npm start | npm run control -- --source stdin');
    } finally {
      if (saved) Object.defineProperty(process.stdin, 'isTTY', saved);
      else delete (process.stdin as { isTTY?: boolean }).isTTY;
    }
  });

  it('refuses a write budget that is not a number of calls an hour, saying what it takes', async () => {
    for (const bad of ['0', 'lots', 'Infinity']) {
      const error = await main(['--source', `file:${join(dir, 'room.log')}`, '--file', config, '--dashboard-port', '0', '--write-budget', bad]).then(
        () => null,
        (e: Error) => e,
      );
      expect(error?.message).toBe(`--write-budget must be a number of calls an hour above 0, not "${bad}"`);
    }
  });

  it('refuses a state file it cannot resume from, naming it and what to do', async () => {
    const state = join(dir, 'control-state.json');
    writeFileSync(state, '{"format":"waiting-room-controller-state","version":1,"sha256":"00","body":"{}"}');
    const error = await main(['--source', `file:${join(dir, 'room.log')}`, '--file', config, '--dashboard-port', '0']).then(
      () => null,
      (e: Error) => e,
    );
    // The default state file sits beside the store file.
    expect(error?.message).toContain(`cannot resume from the state file ${state}: it is corrupt (its checksum does not match its contents)`);
    expect(error?.message).toContain('npm run control -- --fresh');
    rmSync(state);
  });

  it('refuses a lease too short to outlast the spacing of its writes', async () => {
    const error = await main(['--source', `file:${join(dir, 'room.log')}`, '--file', config, '--lease', '30']).then(
      () => null,
      (e: Error) => e,
    );
    expect(error?.message).toBe('--lease must be at least 60 seconds (a lease shorter than the writes\' spacing would lapse between them), not "30"');
  });

  it("passes the room's banner and errors through, and not its decision lines", async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'control/cli.ts', '--source', 'stdin', '--file', config, '--dashboard-port', '0'], {
      cwd: repoRoot,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const decision = admittedLine(Date.now(), 1);
    child.stdin.write('  The waiting room is running.\n');
    child.stdin.write(`${decision}\n`);
    child.stdin.write('[start] the demo origin failed (EADDRINUSE); stopping the room\n');
    await expect.poll(() => out, { timeout: 20_000, interval: 100 }).toContain('the demo origin failed');
    expect(out).toContain('The waiting room is running.');
    expect(out).not.toContain(decision);
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  }, 30_000);
});
