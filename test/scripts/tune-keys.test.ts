// `npm run tune -- active_key=KID` on the local store: a key that cannot sign (not in local/keys.json,
// or a value the room cannot use) is refused before anything is written, naming the keys there are
// and the commands that fix it, service-wide and with --room. A room whose active_key names no
// usable key answers every new visitor with a 503.
import { rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { main as tune } from '../../scripts/tune.js';
import { captured, readJson, refusedBy, scratch, type Scratch } from './helpers.js';

const routing = JSON.stringify({
  rooms: [
    { id: 'shop', routes: ['/'] },
    { id: 'checkout', routes: ['/checkout'] },
  ],
  default_room: 'shop',
});
const demo = {
  routing,
  settings: JSON.stringify({ enabled: 'true', allow_percentage: '50', wait_period_duration: '10', active_key: 'key1' }),
  'room.checkout': JSON.stringify({ wait_period_duration: '5' }),
};
const key = () => randomBytes(64).toString('base64');

let s: Scratch;
beforeEach(() => {
  s = scratch(demo);
  writeFileSync(s.keys, JSON.stringify({ key1: key(), key2: key(), 'invite.k1': key() }));
});
afterEach(() => s.cleanup());

const refused = (argv: string[]): Promise<string> => refusedBy(tune, s.config, argv);

describe('npm run tune -- active_key=KID (local/keys.json)', () => {
  it('refuses a key id that is not in the key file, naming the keys there are and how to add one', async () => {
    const err = await refused(['active_key=nokey']);
    expect(err).toContain('refused: setting "active_key" = "nokey" (service-wide, in settings)');
    expect(err).toContain(`there is no key "nokey" in ${s.keys}`);
    expect(err).toContain('every new visitor would get a 503');
    expect(err).toContain('the keys there are key1, key2');
    expect(err).not.toContain('invite.k1, ');
    expect(err).toContain('npm run tune -- active_key=key2');
    expect(err).toContain('npm run keys -- add nokey');
  });

  it('takes a key the file holds', async () => {
    const r = await captured(() => tune(['active_key=key2']));
    expect(r.result, r.err).toBe(0);
    expect(JSON.parse(readJson(s.config).settings!).active_key).toBe('key2');
  });

  it('refuses a key whose value the room cannot use, saying why', async () => {
    writeFileSync(
      s.keys,
      JSON.stringify({ key1: key(), short: Buffer.alloc(16).toString('base64'), bad: 'not base64!' }),
    );
    expect(await refused(['active_key=short'])).toContain('the key "short" is under 32 bytes');
    expect(await refused(['active_key=bad'])).toContain('the key "bad" is not base64');
  });

  it('refuses the event seed and an invite key, which never sign tokens', async () => {
    expect(await refused(['active_key=event-seed'])).toContain('never signs tokens');
    expect(await refused(['active_key=invite.k1'])).toContain('never signs tokens');
  });

  it("checks a room's own active_key, and names the --room command that fixes it", async () => {
    const err = await refused(['--room', 'checkout', 'active_key=nokey']);
    expect(err).toContain('refused: setting "active_key" = "nokey" (room checkout\'s own, in room.checkout)');
    expect(err).toContain('room checkout could not sign a token');
    expect(err).toContain('npm run tune -- --room checkout active_key=key1');
    const ok = await captured(() => tune(['--room', 'checkout', 'active_key=key2']));
    expect(ok.result, ok.err).toBe(0);
  });

  it('refuses removing active_key when the key the rooms would then sign with is missing', async () => {
    writeFileSync(s.keys, JSON.stringify({ key2: key() }));
    await captured(() => tune(['active_key=key2']));
    const err = await refused(['active_key=']);
    expect(err).toContain('rooms shop, checkout would sign with "key1"');
    expect(err).toContain(`there is no key "key1" in ${s.keys}`);
  });

  it('takes any service-wide key before the key file exists: npm start makes the key active_key names', async () => {
    rmSync(s.keys);
    const r = await captured(() => tune(['active_key=mine']));
    expect(r.result, r.err).toBe(0);
    expect(r.out).toContain(`${s.keys} does not exist yet: npm start makes it with the key "mine"`);
    const room = await refused(['--room', 'checkout', 'active_key=other']);
    expect(room).toContain(`there is no key "other" in ${s.keys}`);
  });

  it('leaves the keys alone when active_key is not being changed', async () => {
    writeFileSync(s.keys, JSON.stringify({}));
    const r = await captured(() => tune(['allow_percentage=20']));
    expect(r.result, r.err).toBe(0);
  });
});
