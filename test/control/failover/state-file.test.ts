// The controller's state file: written whole or not at all, refused whole when it cannot be used.
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { repoRoot } from '../../../lib/paths.js';
import {
  defaultStateFile,
  encodeState,
  readStateFile,
  removeLeftTemps,
  RoomsJson,
  STATE_VERSION,
  StateSaver,
  writeStateFile,
  type ControllerState,
} from '../../../control/failover/state-file.js';
import { spawnSync } from 'node:child_process';

const state = (over: Partial<ControllerState> = {}): ControllerState => ({
  version: STATE_VERSION,
  savedAtMs: Date.UTC(2026, 10, 26, 10),
  store: 'service SVC1',
  heartbeatId: '0a1b2c3d',
  lastWrite: { atMs: 1, stored: { 'room.shop.live': '{"allow_schedule":"1=50"}' } },
  pops: { LHR: 1_700_000_000_123 },
  rooms: { shop: { version: 1, anything: [1, 2] } },
  ...over,
});

let dir: string;
beforeEach(async () => (dir = await mkdtemp(join(tmpdir(), 'state-'))));
afterEach(async () => rm(dir, { recursive: true, force: true }));

describe('the state file', () => {
  it('names a file per store by default', () => {
    expect(defaultStateFile(undefined, join(repoRoot, 'local', 'config.json'))).toBe(
      join(repoRoot, 'local', 'control-state-config.json'),
    );
    expect(defaultStateFile(undefined, '/tmp/room/config.json')).toBe('/tmp/room/control-state-config.json');
    expect(defaultStateFile('SVC1', join(repoRoot, 'local', 'config.json'))).toBe(
      join(repoRoot, 'local', 'control-state-SVC1.json'),
    );
  });

  it('reads back what it wrote, leaving no temporary file beside it', async () => {
    const file = join(dir, 'sub', 'state.json');
    await writeStateFile(file, state());
    expect(await readStateFile(file, 'service SVC1')).toEqual(state());
    expect(await readdir(join(dir, 'sub'))).toEqual(['state.json']);
  });

  it('is no state when there is no file', async () => {
    expect(await readStateFile(join(dir, 'none.json'), 'service SVC1')).toBeNull();
  });

  it('refuses a corrupt file, naming it and what to do', async () => {
    const file = join(dir, 'state.json');
    await writeStateFile(file, state());
    const text = await readFile(file, 'utf8');
    // Cut short, as a write the disk lost half of.
    await writeFile(file, text.slice(0, text.length / 2));
    await expect(readStateFile(file, 'service SVC1')).rejects.toThrow(
      `cannot resume from the state file ${file}: it is corrupt (`,
    );
    // A digit changed: valid JSON, wrong checksum.
    await writeFile(file, text.replace('1700000000123', '1700000000124'));
    await expect(readStateFile(file, 'service SVC1')).rejects.toThrow(
      /it is corrupt \(its checksum does not match its contents\)\. .*--fresh.*--state FILE/,
    );
  });

  it("refuses another service's file", async () => {
    const file = join(dir, 'state.json');
    await writeStateFile(file, state({ store: 'service OTHER' }));
    await expect(readStateFile(file, 'service SVC1')).rejects.toThrow(
      `${file}: it is the state of service OTHER, and this controller steers service SVC1`,
    );
  });

  it('refuses a file an older controller wrote', async () => {
    const file = join(dir, 'state.json');
    await writeFile(file, encodeState(state({ version: 0 })));
    await expect(readStateFile(file, 'service SVC1')).rejects.toThrow(
      `it was written by an older controller (state version 0; this one reads version ${STATE_VERSION})`,
    );
  });

  it('is a header line and the body as JSON after it; rooms that come as JSON text go in as they are', async () => {
    const file = join(dir, 'state.json');
    const rooms = { shop: { version: 1, anything: [1, 2] } };
    await writeStateFile(file, { ...state(), rooms: new RoomsJson(JSON.stringify(rooms)) });
    const [head, body, end] = (await readFile(file, 'utf8')).split('\n');
    expect(JSON.parse(head!)).toMatchObject({ format: 'waiting-room-controller-state', version: STATE_VERSION });
    expect(JSON.parse(body!)).toEqual(state());
    expect(end).toBe('');
    expect(await readStateFile(file, 'service SVC1')).toEqual(state());
  });

  it('refuses a body whose fields are of the wrong type, rather than failing later', async () => {
    const file = join(dir, 'state.json');
    for (const over of [
      { rooms: null },
      { pops: { LHR: 'soon' } },
      { lastWrite: { atMs: 1, stored: null } },
      { pops: null },
    ]) {
      await writeFile(file, encodeState(state(over as unknown as Partial<ControllerState>)));
      await expect(readStateFile(file, 'service SVC1')).rejects.toThrow(
        `cannot resume from the state file ${file}: it is corrupt (fields missing or of the wrong type)`,
      );
    }
  });

  it("keeps the API budget's hour with the state; a file without it (as older controllers write) still loads", async () => {
    const file = join(dir, 'state.json');
    const budget = {
      calls: [{ atMs: 5, kind: 'log-tail' as const, calls: 1 }],
      backoffUntilMs: 9,
      remaining: 400,
      resetMs: 10,
    };
    await writeStateFile(file, state({ budget }));
    expect((await readStateFile(file, 'service SVC1'))?.budget).toEqual(budget);
    await writeStateFile(file, state());
    expect((await readStateFile(file, 'service SVC1'))?.budget).toBeUndefined();
    for (const bad of [
      { ...budget, calls: [{ atMs: 5, kind: 'poll', calls: 1 }] },
      { ...budget, backoffUntilMs: 'soon' },
      [],
    ]) {
      await writeFile(file, encodeState(state({ budget: bad as never })));
      await expect(readStateFile(file, 'service SVC1')).rejects.toThrow(
        'it is corrupt (fields missing or of the wrong type)',
      );
    }
  });

  it('saves at most once every 10 s, at shutdown whenever asked, and says once when it cannot', async () => {
    const saved: number[] = [];
    const logs: string[] = [];
    let fail = false;
    const saver = new StateSaver(
      async (s) => {
        if (fail) throw new Error('disk full');
        saved.push(s.savedAtMs);
      },
      (m) => logs.push(m),
    );
    for (const t of [0, 1000, 9999, 10_000, 15_000, 21_000]) await saver.offer(t, () => state({ savedAtMs: t }));
    // Nothing to save yet (the planner thread's state comes with the next plan): not counted as a save.
    await saver.offer(31_000, () => null);
    await saver.offer(31_500, () => state({ savedAtMs: 31_500 }));
    await saver.offer(32_000, () => state({ savedAtMs: 32_000 }), true);
    expect(saved).toEqual([0, 10_000, 21_000, 31_500, 32_000]);
    fail = true;
    await saver.offer(43_000, () => state());
    await saver.offer(54_000, () => state());
    expect(logs).toEqual(['cannot write the state file: disk full; a restart would start in learning mode']);
  });
});

describe('temporary files a killed write left', () => {
  it('are removed at start when their process runs no more; a running write keeps its own', async () => {
    const file = join(dir, 'control-state-config.json');
    const cut = '.control-state-config.json.210.0868e0ef.tmp';
    const running = `.control-state-config.json.${process.ppid}.0123abcd.tmp`;
    for (const name of [cut, running, '.config.json.210.0868e0ef.tmp']) await writeFile(join(dir, name), 'x');
    expect(await removeLeftTemps(file, (pid) => pid === process.ppid)).toEqual([cut]);
    expect((await readdir(dir)).sort()).toEqual(['.config.json.210.0868e0ef.tmp', running].sort());
  });

  it('are ignored by git in local/', () => {
    const ignored = spawnSync('git', ['check-ignore', '-q', 'local/.control-state-config.json.210.0868e0ef.tmp'], {
      cwd: repoRoot,
    });
    expect(ignored.status).toBe(0);
  });
});
