// `npm run load` against the built room on the local host (lib/room-host.ts), briefly: it
// refuses a room that would see one visitor, and otherwise drives twenty browsers through the room.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { main } from '../../load/cli.js';
import { startRoom, type Room } from '../../lib/room-host.js';

const dir = mkdtempSync(join(tmpdir(), 'wr-load-'));
let room: Room;
const settings = { allow_percentage: '90', wait_period_duration: '5' };

beforeAll(async () => {
  room = await startRoom({ settings: { ...settings, identity: 'ip' } });
});
afterAll(async () => {
  await room?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** Runs the command with its output captured. */
async function load(args: string[]): Promise<{ code: number; out: string }> {
  const lines: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void lines.push(a.join(' ')));
  const err = vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => void lines.push(a.join(' ')));
  try {
    const code = await main(['--url', room.url, ...args]);
    return { code, out: lines.join('\n') };
  } finally {
    log.mockRestore();
    err.mockRestore();
  }
}

describe('npm run load on the built room', () => {
  it('refuses a room that keys identity on the address', async () => {
    const { code, out } = await load(['--visitors', '5', '--minutes', '0.05']);
    expect(code).toBe(1);
    expect(out).toContain('npm run tune -- identity=header:x-load-visitor');
  });

  it('sends each browser through the room as its own visitor and writes the figures', async () => {
    await room.setConfig({ ...settings, identity: 'header:x-load-visitor' });
    const out = join(dir, 'load.json');
    const seen = room.decisions().length;
    const run = await load([
      '--visitors',
      '20',
      '--minutes',
      '0.3',
      '--flash-seconds',
      '2',
      '--target',
      '10',
      '--out',
      out,
    ]);
    expect(run.code, run.out).toBe(0);
    expect(run.out).toMatch(/minute 1: arrivals 20, requests \d+, admitted \d+/);
    const report = JSON.parse(readFileSync(out, 'utf8')) as {
      totals: { arrivals: number; admissions: number; errors: number; requests: number };
      admissionsPerMinute: number[];
    };
    expect(report.totals).toMatchObject({ arrivals: 20, errors: 0 });
    // 18 s of 5-second windows at 90%: a newcomer's first draw falls 5 to 10 s after it arrives, so
    // nearly all have drawn at least once; some get in whatever the clock's phase.
    expect(report.totals.admissions).toBeGreaterThan(0);
    expect(report.admissionsPerMinute).toEqual([report.totals.admissions]);
    // Twenty identities: twenty different first wait tokens (the two probes come first).
    const lines = room.decisions().slice(seen);
    const firstTokens = new Set(lines.filter((l) => l.reason === 'no_token').map((l) => l.newTid));
    expect(firstTokens.size).toBe(22);
    expect(lines.length).toBeGreaterThanOrEqual(report.totals.requests);
  }, 60_000);
});
