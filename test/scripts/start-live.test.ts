// What a plain `npm start` does with the room.ID.live values a controller left in the local store.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { clearStoppedController, leftLive } from '../../scripts/start-live.js';
import { repoRoot } from '../../lib/paths.js';

const dir = mkdtempSync(join(tmpdir(), 'wr-start-live-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const demo = JSON.parse(readFileSync(join(repoRoot, 'local', 'config.example.json'), 'utf8')) as Record<string, string>;
const live = JSON.stringify({
  allow_schedule: '1796454260=2.388404,1796454980=2.561533',
  proof_schedule: '1796454260=0',
});
const beat = (host: string, pid: number) =>
  JSON.stringify({ id: '9af6d611', host, pid, started: 1796454000, beat: 1796454980, lease: 600 });

function storeFile(name: string, extra: Record<string, string>): string {
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify({ ...demo, ...extra }));
  return file;
}
const read = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;

describe('what a stopped controller left', () => {
  it('is nothing to say when no room has a live value', async () => {
    expect(leftLive(demo, 'vm', () => false)).toBeNull();
    expect(await clearStoppedController(storeFile('none.json', {}), 'vm', () => false)).toBeNull();
  });

  it('is removed, every room of it, when its controller ran here and runs no more; the rest is kept', async () => {
    const file = storeFile('stopped.json', {
      'room.shop.live': live,
      'room.checkout.live': live,
      controller: beat('vm', 210),
    });
    const said = await clearStoppedController(file, 'vm', () => false);
    expect(said).toContain('cleared what a stopped controller left (pid 210');
    expect(said).toContain('shop, checkout');
    const after = read(file);
    expect(after['room.shop.live']).toBeUndefined();
    expect(after['room.checkout.live']).toBeUndefined();
    expect(after.settings).toBe(demo.settings);
    expect(after.routing).toBe(demo.routing);
  });

  it("is never a room's status basis, which tune writes too and decides no draw: kept when the rest is removed", async () => {
    const basis = '{"at":1796454000,"settings":{"allow_percentage":"50"}}';
    expect(
      leftLive({ ...demo, 'room.shop.live': JSON.stringify({ status_basis: basis }) }, 'vm', () => false),
    ).toBeNull();
    const file = storeFile('basis.json', {
      'room.shop.live': JSON.stringify({ ...JSON.parse(live), status_basis: basis }),
      controller: beat('vm', 210),
    });
    expect(await clearStoppedController(file, 'vm', () => false)).toContain('room.ID.live of shop');
    expect(JSON.parse(read(file)['room.shop.live']!)).toEqual({ status_basis: basis });
  });

  it('is kept while its controller runs (a piped npm start | npm run control)', async () => {
    const file = storeFile('running.json', { 'room.shop.live': live, controller: beat('vm', 4242) });
    expect(await clearStoppedController(file, 'vm', (pid) => pid === 4242)).toContain('a controller runs (pid 4242)');
    expect(read(file)['room.shop.live']).toBe(live);
  });

  it('is kept, loudly, with the command that clears it, when nobody can tell whether its controller runs', async () => {
    const other = storeFile('other-host.json', { 'room.shop.live': live, controller: beat('ops-1', 210) });
    const said = await clearStoppedController(other, 'vm', () => false);
    expect(said).toMatch(/^WARNING: room\.shop\.live decide/);
    expect(said).toContain('host ops-1, pid 210');
    expect(said).toContain('npm run tune -- --room shop allow_schedule= proof_schedule=');
    expect(read(other)['room.shop.live']).toBe(live);
    const noBeat = storeFile('no-beat.json', { 'room.shop.live': live });
    expect(await clearStoppedController(noBeat, 'vm', () => false)).toContain(
      'no controller heartbeat says who wrote them',
    );
    expect(read(noBeat)['room.shop.live']).toBe(live);
  });
});
