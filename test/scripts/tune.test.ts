import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { main as tune } from '../../scripts/tune.js';
import { repoRoot } from '../../lib/paths.js';
import { captured, readJson, scratch, type Scratch } from './helpers.js';

const base = { enabled: 'true', allow_percentage: '50', wait_period_duration: '10', active_key: 'key1' };
const routing = {
  rooms: [
    { id: 'shop', routes: ['/'] },
    { id: 'checkout', routes: ['/checkout'] },
  ],
  default_room: 'shop',
  rules: [{ id: 'health', if: { path: { prefix: '/health' } }, then: 'bypass' }],
};
const demo = {
  routing: JSON.stringify(routing),
  settings: JSON.stringify(base),
  'room.checkout': JSON.stringify({ wait_period_duration: '20' }),
  'room.checkout.allow_percentage': '30',
};
/** The service-wide settings in the scratch store. */
const settingsOf = (store: Record<string, string>) => JSON.parse(store.settings ?? '{}') as Record<string, string>;

let s: Scratch;
beforeEach(() => {
  s = scratch(demo);
});
afterEach(() => s.cleanup());

describe('npm run tune (local)', () => {
  it('changes the named settings, keeps the others, and prints old -> new', async () => {
    const r = await captured(() => tune(['allow_percentage=25', 'wait_period_duration=5']));
    expect(r.result).toBe(0);
    expect(readJson(s.config)).toEqual({
      ...demo,
      settings: JSON.stringify({ ...base, allow_percentage: '25', wait_period_duration: '5' }),
      // Each room's status basis copies the settings it reads (docs/status.md), so it follows them.
      'room.shop.live': expect.stringContaining('status_basis'),
      'room.checkout.live': expect.stringContaining('status_basis'),
    });
    expect(r.out).toContain('allow_percentage: "50" -> "25" (settings)');
    expect(r.out).toContain('wait_period_duration: "10" -> "5" (settings)');
  });

  it('adds a setting that was not there and removes one given an empty value', async () => {
    const r = await captured(() => tune(['waiting_status=503', 'wait_period_duration=']));
    expect(r.result).toBe(0);
    const after = settingsOf(readJson(s.config));
    expect(after.waiting_status).toBe('503');
    expect(after).not.toHaveProperty('wait_period_duration');
    expect(r.out).toContain('waiting_status: (unset) -> "503"');
  });

  it.each([
    ['allow_percentage=abc', 'allow_percentage'],
    ['allow_percentage=150', 'allow_percentage'],
    ['wait_period_duration=0', 'wait_period_duration'],
    ['cookie_lifetime=1.5', 'cookie_lifetime'],
    ['identity=cookie:x', 'identity'],
    ['waiting_status=404', 'waiting_status'],
    ['enabled=yes', 'enabled'],
  ])('refuses %s, names the key and writes nothing', async (arg, key) => {
    const before = readFileSync(s.config, 'utf8');
    const r = await captured(() => tune(['allow_percentage=30', arg]));
    expect(r.result).toBe(1);
    expect(r.err).toContain(`"${key}"`);
    expect(readFileSync(s.config, 'utf8')).toBe(before);
  });

  it('refuses an unknown setting by name', async () => {
    const before = readFileSync(s.config, 'utf8');
    const r = await captured(() => tune(['allow_percentag=30']));
    expect(r.error?.message).toMatch(/unknown setting "allow_percentag"/);
    expect(readFileSync(s.config, 'utf8')).toBe(before);
  });

  it('suggests the setting a typo was meant to be, instead of listing them all', async () => {
    for (const [typo, meant] of [
      ['allw_percentage', 'allow_percentage'],
      ['allow_percetnage', 'allow_percentage'],
      // A word two settings contain: both, the nearer first.
      ['percentage', 'allow_percentage or fallback_percentage'],
      ['new_user_per_minute', 'new_users_per_minute'],
      ['falback_percentage', 'fallback_percentage'],
      ['sample_rate', 'log_sample_rate'],
    ]) {
      const r = await captured(() => tune([`${typo}=5`]));
      expect(r.error?.message).toContain(`unknown setting "${typo}": did you mean ${meant}?`);
      expect(r.error?.message).not.toContain('jwt_jwks');
    }
  });

  it('lists every setting when nothing is close to the unknown one', async () => {
    const r = await captured(() => tune(['colour=blue']));
    expect(r.error?.message).toMatch(/unknown setting "colour"; the settings are: enabled, allow_percentage, /);
  });

  it('says a refused value was refused, that nothing was written and what the room accepts, without what the room would do with it', async () => {
    const r = await captured(() => tune(['allow_percentage=150']));
    expect(r.result).toBe(1);
    expect(r.err).toContain(
      'refused: setting "allow_percentage" = "150" (service-wide, in settings): it must be between 0 and 100',
    );
    expect(r.err).toContain(`nothing was written to ${s.config}`);
    expect(r.err).not.toMatch(/admitting everyone/);
  });

  it("writes message.TAG under its language's tag, and refuses a tag that is not built in", async () => {
    const r = await captured(() => tune(['message.en-us=Back at noon']));
    expect(r.result).toBe(0);
    expect(settingsOf(readJson(s.config))['message.en-US']).toBe('Back at noon');
    expect(r.out).toContain('message.en-US: (unset) -> "Back at noon" (settings)');
    const bad = await captured(() => tune(['message.xx-YY=hi']));
    expect(bad.error?.message).toMatch(
      /unknown setting "message.xx-YY": TAG in message.TAG must be a built-in language \(en-US/,
    );
    const literal = await captured(() => tune(['message.TAG=hi']));
    expect(literal.error?.message).toMatch(/unknown setting "message.TAG"/);
  });

  it('refuses languages and default_language the room cannot use, naming them', async () => {
    const r = await captured(() => tune(['languages=en-US,xx-YY']));
    expect(r.result).toBe(1);
    expect(r.err).toContain(
      'refused: setting "languages" = "xx-YY" (service-wide, in settings): it must list built-in languages (en-US',
    );
    const d = await captured(() => tune(['default_language=xx']));
    expect(d.result).toBe(1);
    expect(d.err).toContain(
      'refused: setting "default_language" = "xx" (service-wide, in settings): it must be one of the languages the room offers (en-US',
    );
  });

  it('tells an operator whose value was split at a space to quote it', async () => {
    const r = await captured(() => tune(['message=hello', 'world']));
    expect(r.error?.message).toBe(
      '"world" is not key=value: a value with spaces must be quoted, as in message="hello world"',
    );
    const two = await captured(() => tune(['message=sold', 'out', 'today', 'allow_percentage=5']));
    expect(two.error?.message).toContain('as in message="sold out today"');
  });

  it('replaces the file by rename, leaving no temporary file behind', async () => {
    const inodeBefore = statSync(s.config).ino;
    await captured(() => tune(['allow_percentage=10']));
    // A new inode: the host's reader sees the old file or the new one, never a truncated one.
    expect(statSync(s.config).ino).not.toBe(inodeBefore);
    expect(readdirSync(s.dir)).toEqual(['config.json']);
  });

  it('warns about a bad setting it was not asked to change, and still applies the change', async () => {
    s.cleanup();
    s = scratch({ ...demo, 'room.shop': JSON.stringify({ cookie_samesite: 'sometimes' }) });
    const r = await captured(() => tune(['allow_percentage=70']));
    expect(r.result).toBe(0);
    expect(r.err).toMatch(/warning: setting "cookie_samesite" = "sometimes" in room.shop is not used as written/);
    expect(settingsOf(readJson(s.config)).allow_percentage).toBe('70');
  });

  it('exits non-zero from the command line, naming the key', () => {
    const run = spawnSync(join(repoRoot, 'node_modules', '.bin', 'tsx'), ['scripts/tune.ts', 'allow_percentage=x'], {
      cwd: repoRoot,
      env: { ...process.env, WR_CONFIG_FILE: s.config },
      encoding: 'utf8',
    });
    expect(run.status).not.toBe(0);
    expect(run.stderr).toContain('"allow_percentage"');
  });
});

describe('npm run tune: rooms', () => {
  it("writes a room's allow_percentage on its own, its other settings in room.ID, and the controller's in room.ID.live", async () => {
    const r = await captured(() =>
      tune(['--room', 'checkout', 'allow_percentage=40', 'new_users_per_minute=30', 'queue_cursor=1700000000:0:1']),
    );
    expect(r.result).toBe(0);
    const after = readJson(s.config);
    expect(after['room.checkout.allow_percentage']).toBe('40');
    expect(JSON.parse(after['room.checkout']!)).toEqual({ wait_period_duration: '20', new_users_per_minute: '30' });
    expect(JSON.parse(after['room.checkout.live']!)).toEqual({
      queue_cursor: '1700000000:0:1',
      status_basis: expect.stringContaining('"new_users_per_minute":"30"'),
    });
    expect(after.settings).toBe(demo.settings);
    expect(r.out).toContain('allow_percentage: "30" -> "40" (room.checkout.allow_percentage)');
  });

  it("removes a room's own setting given an empty value, so the service-wide one applies again", async () => {
    const r = await captured(() => tune(['--room', 'checkout', 'allow_percentage=', 'wait_period_duration=']));
    expect(r.result).toBe(0);
    const after = readJson(s.config);
    expect(after).not.toHaveProperty('room.checkout.allow_percentage');
    expect(after).not.toHaveProperty('room.checkout');
  });

  it("refuses a room's bad value, naming the key and where it would go, and writes nothing", async () => {
    const before = readFileSync(s.config, 'utf8');
    const r = await captured(() => tune(['--room', 'checkout', 'wait_period_duration=0']));
    expect(r.result).toBe(1);
    expect(r.err).toContain('refused: setting "wait_period_duration" = "0"');
    expect(r.err).toContain("(room checkout's own, in room.checkout)");
    expect(readFileSync(s.config, 'utf8')).toBe(before);
  });

  it('refuses a room the routing does not name, listing the rooms it does', async () => {
    const before = readFileSync(s.config, 'utf8');
    const r = await captured(() => tune(['--room', 'chekout', 'allow_percentage=30']));
    expect(r.result).toBe(1);
    expect(r.err).toContain('refused: --room chekout: the routing names no such room; its rooms are shop, checkout');
    expect(readFileSync(s.config, 'utf8')).toBe(before);
  });

  it('refuses a room id that is not one', async () => {
    const r = await captured(() => tune(['--room', 'Check Out', 'allow_percentage=30']));
    expect(r.result).toBe(1);
    expect(r.err).toContain('"Check Out" is not a room id');
  });

  it('takes --room default when the store has no routing, and refuses any other room then', async () => {
    s.cleanup();
    s = scratch({ settings: JSON.stringify(base) });
    const ok = await captured(() => tune(['--room', 'default', 'allow_percentage=20']));
    expect(ok.result).toBe(0);
    expect(readJson(s.config)['room.default.allow_percentage']).toBe('20');
    const no = await captured(() => tune(['--room', 'shop', 'allow_percentage=20']));
    expect(no.result).toBe(1);
    expect(no.err).toContain('the store has no routing, so its one room is "default"');
  });

  it('warns that a room keeps its own value when a service-wide one changes', async () => {
    const r = await captured(() => tune(['allow_percentage=60']));
    expect(r.result).toBe(0);
    expect(r.err).toContain('room checkout keeps its own allow_percentage (room.checkout.allow_percentage)');
  });

  it('refuses a write that would make a store value longer than 8,000 characters', async () => {
    const before = readFileSync(s.config, 'utf8');
    const r = await captured(() => tune([`jwt_issuer=${'i'.repeat(7900)}`, `jwt_audience=${'a'.repeat(200)}`]));
    expect(r.result).toBe(1);
    expect(r.err).toMatch(/refused: settings would be \d+ characters, more than the 8000 a Config Store value holds/);
    expect(readFileSync(s.config, 'utf8')).toBe(before);
  });

  it('says bypass_paths is gone and what replaces it', async () => {
    const r = await captured(() => tune(['bypass_paths=/health']));
    expect(r.error?.message).toMatch(/bypass_paths is gone: a rule sends requests past the rooms now/);
  });
});

describe('npm run tune -- --routing-json', () => {
  it('prints the routing as a file to edit, which --routing takes back as it is', async () => {
    const printed = await captured(() => tune(['--routing-json']));
    expect(printed.result).toBe(0);
    expect(JSON.parse(printed.out)).toEqual(routing);
    expect(printed.out.split('\n').length).toBeGreaterThan(10);
    const file = join(s.dir, 'edit.json');
    writeFileSync(file, printed.out);
    expect((await captured(() => tune(['--routing', file]))).result).toBe(0);
    expect(JSON.parse(readJson(s.config).routing!)).toEqual(routing);
  });

  it('prints the one room a store without routing has', async () => {
    s.cleanup();
    s = scratch({ settings: JSON.stringify(base) });
    expect(JSON.parse((await captured(() => tune(['--routing-json']))).out)).toEqual({
      rooms: [{ id: 'default', routes: ['/'] }],
      rules: [],
    });
  });
});

describe('npm run tune -- --routing', () => {
  const routingFile = (value: unknown): string => {
    const file = join(s.dir, 'routing.json');
    writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value, null, 2));
    return file;
  };
  const withRooms = (extra: Record<string, unknown>) => ({ ...routing, ...extra });

  it('writes a routing from a file, without its layout', async () => {
    const next = withRooms({ rules: [] });
    const r = await captured(() => tune(['--routing', routingFile(next)]));
    expect(r.result).toBe(0);
    expect(readJson(s.config).routing).toBe(JSON.stringify(next));
    expect(r.out).toMatch(/routing: replaced \(\d+ of 8000 characters\)/);
    expect(r.out).toMatch(/rule removed: health/);
  });

  it('says which rooms and rules a new routing adds, removes or changes', async () => {
    const next = {
      rooms: [
        { id: 'shop', routes: ['/', '/sale'] },
        { id: 'vip', routes: ['/vip'] },
      ],
      default_room: 'shop',
      rules: [
        { id: 'health', if: { path: { prefix: '/health' } }, then: 'bypass' },
        { id: 'staff', if: { header: { name: 'x-staff', equals: 'k' } }, then: 'bypass' },
      ],
    };
    const r = await captured(() => tune(['--routing', routingFile(next)]));
    expect(r.result).toBe(0);
    expect(r.out).toMatch(/room added: vip; room removed: checkout; room changed: shop; rule added: staff/);
  });

  it('reads the routing from stdin with --routing -', async () => {
    const next = withRooms({ rules: [] });
    const r = await captured(() => tune(['--routing', '-'], { stdin: async () => JSON.stringify(next) }));
    expect(r.result).toBe(0);
    expect(readJson(s.config).routing).toBe(JSON.stringify(next));
  });

  it.each([
    ['not JSON', '{"rooms": [', /refused: routing.*not (valid )?JSON/],
    [
      'the same route in two rooms',
      withRooms({
        rooms: [
          { id: 'shop', routes: ['/'] },
          { id: 'checkout', routes: ['/'] },
        ],
      }),
      /refused: routing: room checkout: route \/ is room shop's already/,
    ],
    [
      'a rule naming an unknown room',
      withRooms({ rules: [{ id: 'vip', if: { cookie: 'vip' }, then: 'room:vip' }] }),
      /refused: routing: rule vip: .*vip/,
    ],
    [
      'a rule that cannot be read',
      withRooms({ rules: [{ id: 'odd', if: { colour: 'blue' }, then: 'bypass' }] }),
      /refused: routing: rule odd: .*colour/,
    ],
    [
      'a room id that is not one',
      withRooms({ rooms: [{ id: 'Shop', routes: ['/'] }] }),
      /refused: routing: room rooms\[0\]: .*not a room id/,
    ],
    // The edge keeps such a room or rule (ignoring the key); the tool still refuses the value.
    [
      'a room with an unknown key',
      withRooms({ rooms: [{ id: 'shop', routes: ['/'], ignore_case: true }] }),
      /refused: routing: room shop: unknown key "ignore_case"/,
    ],
    [
      'a rule with an unknown key',
      withRooms({ rules: [{ id: 'hooks', comment: 'x', if: { cookie: 'a' }, then: 'bypass' }] }),
      /refused: routing: rule hooks: unknown key "comment"/,
    ],
  ])('refuses %s, naming it, and writes nothing', async (_what, value, message) => {
    const before = readFileSync(s.config, 'utf8');
    const r = await captured(() => tune(['--routing', routingFile(value)]));
    expect(r.result).toBe(1);
    expect(r.err).toMatch(message);
    expect(readFileSync(s.config, 'utf8')).toBe(before);
  });

  it('refuses a routing over 8,000 characters, saying its size and the limit', async () => {
    const rooms = Array.from({ length: 300 }, (_, i) => ({
      id: `room-${i}`,
      routes: [`/a-rather-long-path-for-room-${i}`],
    }));
    const r = await captured(() => tune(['--routing', routingFile({ rooms })]));
    expect(r.result).toBe(1);
    expect(r.err).toMatch(
      /refused: routing is \d{4,} characters \(without its spaces\), more than the 8000 a Config Store value holds/,
    );
  });

  it('counts a routing in characters (code points) as the edge and the local host do: 8,000 emoji-laden ones are taken', async () => {
    const base = JSON.stringify({ rooms: [{ id: 'shop', routes: ['/x'] }] });
    const route = `/${'\u{1F600}'.repeat(8000 - base.length + 1)}`;
    const r = await captured(() => tune(['--routing', routingFile({ rooms: [{ id: 'shop', routes: [route] }] })]));
    // Only the demo's checkout settings, which this routing drops, are warned of.
    expect(r.err.split('\n').filter((l) => l !== '' && !l.includes('the routing does not name (checkout)'))).toEqual(
      [],
    );
    expect(r.result).toBe(0);
    expect(r.out).toMatch(/routing: (?:set|replaced) \(8000 of 8000 characters\)/);
  });

  it('checks --room against the new routing when both are given', async () => {
    const next = withRooms({ rooms: [...routing.rooms, { id: 'drops', routes: ['/drops'] }] });
    const r = await captured(() => tune(['--routing', routingFile(next), '--room', 'drops', 'allow_percentage=5']));
    expect(r.result).toBe(0);
    expect(readJson(s.config)['room.drops.allow_percentage']).toBe('5');
  });
});

describe('npm run tune (show)', () => {
  it('shows the routing, then each room with where each setting comes from', async () => {
    s.cleanup();
    s = scratch({ ...demo, 'room.checkout.live': JSON.stringify({ queue_cursor: '1700000000:0:1' }) });
    const r = await captured(() => tune([]));
    expect(r.result).toBe(0);
    expect(r.out).toContain('routing:');
    expect(r.out).toMatch(/room shop:[\s\S]*room checkout:/);
    const checkout = r.out.slice(r.out.indexOf('room checkout:'));
    expect(checkout).toMatch(/allow_percentage\s+= "30"\s+\(room: room.checkout.allow_percentage\)/);
    expect(checkout).toMatch(/wait_period_duration\s+= "20"\s+\(room: room.checkout\)/);
    expect(checkout).toMatch(/enabled\s+= "true"\s+\(service-wide\)/);
    expect(checkout).toMatch(/queue_cursor\s+= "1700000000:0:1"\s+\(live: room.checkout.live\)/);
    expect(checkout).toMatch(/at their defaults \(docs\/configuration.md\): .*waiting_status/);
    expect(checkout).toMatch(/at their defaults \(docs\/configuration.md\): .*message\.TAG/);
  });

  it("shows each language's own message", async () => {
    s.cleanup();
    s = scratch({ ...demo, settings: JSON.stringify({ ...base, 'message.en-US': 'Hi' }) });
    const r = await captured(() => tune([]));
    expect(r.out).toMatch(/message\.en-US\s+= "Hi"\s+\(service-wide\)/);
  });

  it('says so when there is no routing: one room, default', async () => {
    s.cleanup();
    s = scratch({ settings: JSON.stringify(base) });
    const r = await captured(() => tune(['--show']));
    expect(r.out).toContain('routing: none: one room, "default", covers every request');
    expect(r.out).toContain('room default:');
  });
});

describe('npm run tune: a store in the old layout', () => {
  it('says a flat setting is never read by the edge, and how to move it', async () => {
    s.cleanup();
    s = scratch({ ...demo, allow_percentage: '10' });
    const r = await captured(() => tune(['--show']));
    expect(r.out).toContain('problem: allow_percentage is a key the edge never reads');
    expect(r.out).toContain('npm run tune -- allow_percentage="10"');
  });
});
