// What `npm run tune` judges, by scope: a refusal names the scope it judged (service-wide, or a room)
// and the value it compared against with where that value lives, and, when the conflict is a room's,
// the --room commands that fix it; a service-wide change of a value that lives per room (the
// controller's room.ID.live values, a room's own allow_percentage) is applied to every room or
// refused naming --room, never a silent no-op.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { main as tune } from '../../scripts/tune.js';
import { captured, readJson, refusedBy, scratch, type Scratch } from './helpers.js';

const routing = JSON.stringify({
  rooms: [
    { id: 'shop', routes: ['/'] },
    { id: 'checkout', routes: ['/checkout'] },
  ],
  default_room: 'shop',
});
const settings = JSON.stringify({
  enabled: 'true',
  allow_percentage: '50',
  wait_period_duration: '10',
  active_key: 'key1',
});
/** The demo's shape: room checkout has its own 5-second window and its own allow_percentage. */
const demo = {
  routing,
  settings,
  'room.checkout': JSON.stringify({ wait_period_duration: '5' }),
  'room.checkout.allow_percentage': '50',
};

let s: Scratch;
afterEach(() => s.cleanup());

const refused = (argv: string[]): Promise<string> => refusedBy(tune, s.config, argv);

describe('npm run tune: a refusal names the scope it judged', () => {
  const ask = ['wait_period_duration=60', 'proof_of_work=fixed', 'proof_seconds=40'];

  it("blames a room's own value for a service-wide change it conflicts with, and gives the --room commands that fix it", async () => {
    s = scratch(demo);
    const err = await refused(ask);
    expect(err).toContain(
      'refused: setting "proof_seconds" = "40" (service-wide, in settings): in room checkout it is longer than wait_period_duration (5 s)',
    );
    expect(err).toContain('compared with room checkout\'s own wait_period_duration, "5" (room.checkout)');
    expect(err).not.toMatch(/: it is longer than wait_period_duration \(5 s\)/);
    expect(err).toContain('npm run tune -- --room shop wait_period_duration=60 proof_of_work=fixed proof_seconds=40');
    expect(err).toContain('npm run tune -- --room checkout wait_period_duration=');
  });

  it('suggests commands that work', async () => {
    s = scratch(demo);
    expect((await captured(() => tune(['--room', 'shop', ...ask]))).result).toBe(0);
    expect((await captured(() => tune(['--room', 'checkout', 'wait_period_duration=']))).result).toBe(0);
    expect((await captured(() => tune(ask))).result).toBe(0);
    expect(JSON.parse(readJson(s.config).settings!)).toMatchObject({ wait_period_duration: '60', proof_seconds: '40' });
  });

  it('says a conflict among service-wide values is service-wide, naming the value compared', async () => {
    s = scratch({ routing, settings });
    const err = await refused(['wait_period_duration=10', 'proof_of_work=fixed', 'proof_seconds=40']);
    expect(err).toContain(
      'refused: setting "proof_seconds" = "40" (service-wide, in settings): it is longer than wait_period_duration (10 s)',
    );
    expect(err).toContain('compared with the service-wide wait_period_duration, "10" (settings)');
    expect(err).not.toContain('in room ');
    expect(err).not.toContain('--room');
  });

  it("names a room's own value and the service-wide one it was compared with", async () => {
    s = scratch({ routing, settings });
    const err = await refused(['--room', 'checkout', 'proof_of_work=fixed', 'proof_seconds=40']);
    expect(err).toContain('refused: setting "proof_seconds" = "40" (room checkout\'s own, in room.checkout)');
    expect(err).toContain('compared with the service-wide wait_period_duration, "10" (settings)');
  });

  it('names the scope of a plain bad value', async () => {
    s = scratch(demo);
    expect(await refused(['allow_percentage=150'])).toContain(
      'refused: setting "allow_percentage" = "150" (service-wide, in settings): it must be between 0 and 100',
    );
    expect(await refused(['--room', 'checkout', 'wait_period_duration=0'])).toContain(
      'refused: setting "wait_period_duration" = "0" (room checkout\'s own, in room.checkout): it must be',
    );
  });
});

const liveShop = JSON.stringify({
  allow_schedule: '1796454260=2.388404,1796454980=2.561533',
  queue_cursor: '1796454200:10:1',
});
const liveCheckout = JSON.stringify({ allow_schedule: '1796454260=40,1796454980=12' });

describe('npm run tune: a service-wide change of a value that lives per room', () => {
  it("allow_schedule= clears the controller's schedule in every room, and says so per room", async () => {
    s = scratch({ ...demo, 'room.shop.live': liveShop, 'room.checkout.live': liveCheckout });
    const r = await captured(() => tune(['allow_schedule=']));
    expect(r.result, r.err).toBe(0);
    const after = readJson(s.config);
    expect(JSON.parse(after['room.shop.live']!)).toEqual({ queue_cursor: '1796454200:10:1' });
    expect(after).not.toHaveProperty('room.checkout.live');
    expect(r.out).toMatch(
      /allow_schedule: "1796454260=2\.388404,1796454980=2\.561533" -> \(unset\) \(room\.shop\.live\)/,
    );
    expect(r.out).toMatch(/allow_schedule: "1796454260=40,1796454980=12" -> \(unset\) \(room\.checkout\.live\)/);
    expect(r.err).not.toMatch(/keeps its own allow_schedule/);
  });

  it('says there was nothing to clear, and writes nothing', async () => {
    s = scratch(demo);
    const before = readFileSync(s.config, 'utf8');
    const r = await captured(() => tune(['allow_schedule=']));
    expect(r.result).toBe(0);
    expect(r.out).toContain('nothing to change: allow_schedule is set in no room and not service-wide');
    expect(r.out).not.toMatch(/^written to/m);
    expect(readFileSync(s.config, 'utf8')).toBe(before);
  });

  it('refuses a service-wide allow_schedule value, naming --room', async () => {
    s = scratch(demo);
    const err = await refused(['allow_schedule=1796454260=5']);
    expect(err).toContain('allow_schedule is published per room');
    expect(err).toContain('npm run tune -- --room shop allow_schedule=1796454260=5');
    expect(err).toContain('npm run tune -- --room checkout allow_schedule=1796454260=5');
  });

  it('warns that a controller still alive will publish again', async () => {
    const beat = JSON.stringify({
      id: 'abcd1234',
      host: 'vm',
      pid: 1,
      started: 1796454000,
      beat: 1796454300,
      lease: 600,
    });
    s = scratch({ ...demo, 'room.shop.live': liveShop, controller: beat });
    const r = await captured(() => tune(['allow_schedule='], { now: () => 1796454400_000 }));
    expect(r.result).toBe(0);
    expect(r.err).toContain(
      'the controller id abcd1234 on host vm, pid 1 wrote its heartbeat 100 s ago: it publishes a new allow_schedule at its next write; stop it first',
    );
  });

  it('refuses a service-wide allow_percentage that every room overrides, naming the --room commands', async () => {
    s = scratch({ ...demo, 'room.shop.allow_percentage': '12' });
    const err = await refused(['allow_percentage=0']);
    expect(err).toContain('every room keeps its own allow_percentage');
    expect(err).toContain('room.shop.allow_percentage "12"');
    expect(err).toContain('npm run tune -- --room shop allow_percentage=0');
    expect(err).toContain('npm run tune -- --room checkout allow_percentage=0');
  });

  it('writes a service-wide allow_percentage some rooms take, and names the rooms that keep their own with the command', async () => {
    s = scratch(demo);
    const r = await captured(() => tune(['allow_percentage=0']));
    expect(r.result).toBe(0);
    expect(r.err).toContain(
      'room checkout keeps its own allow_percentage (room.checkout.allow_percentage); the service-wide value does not apply there',
    );
    expect(r.err).toContain('npm run tune -- --room checkout allow_percentage=0');
  });
});

describe('npm run tune: settings of a room the routing no longer names', () => {
  it('warns when a new routing drops a room that has settings, naming its keys and how to remove them; tune shows it after', async () => {
    s = scratch(demo);
    const file = join(s.dir, 'routing.json');
    writeFileSync(file, JSON.stringify({ rooms: [{ id: 'shop', routes: ['/'] }] }));
    const r = await captured(() => tune(['--routing', file]));
    expect(r.result, r.err).toBe(0);
    const said = `${r.out}\n${r.err}`;
    expect(said).toMatch(
      /room\.checkout, room\.checkout\.allow_percentage: settings of a room the routing does not name \(checkout\), which the edge never reads/,
    );
    expect(said).toContain('fastly config-store-entry delete');
    const shown = await captured(() => tune([]));
    expect(shown.out).toMatch(
      /problem: room\.checkout, room\.checkout\.allow_percentage: settings of a room the routing does not name/,
    );
  });

  it('says nothing of a room the routing names', async () => {
    s = scratch(demo);
    const shown = await captured(() => tune([]));
    expect(shown.out).not.toContain('the routing does not name');
  });
});
