import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkInvite } from '../../src/core/tokens/invite.js';
import { createKeyRing } from '../../src/core/tokens/keys.js';
import { main as invite } from '../../scripts/invite.js';
import { main as keys } from '../../scripts/keys.js';
import { recordRoomAddress } from '../../scripts/start-ports.js';
import { repoRoot } from '../../lib/paths.js';
import { captured, readJson, scratch, type Scratch } from './helpers.js';

const NOW_MS = Date.UTC(2026, 0, 1);
const NOW = NOW_MS / 1000;

/** A store like the demo's: shop identifies visitors by address, checkout by a header. */
const STORE = {
  routing: JSON.stringify({
    rooms: [
      { id: 'shop', routes: ['/'] },
      { id: 'checkout', routes: ['/checkout'] },
    ],
    default_room: 'shop',
  }),
  settings: JSON.stringify({ active_key: 'key1' }),
  'room.checkout': JSON.stringify({ identity: 'header:x-customer-id' }),
};

let s: Scratch;
beforeEach(() => {
  s = scratch(STORE);
});
afterEach(() => s.cleanup());

/** The key ring the room would build from the local key file. */
const ring = () => {
  const file = readJson(s.keys);
  return createKeyRing(
    async (name) => file[name] ?? null,
    () => {},
  );
};
/** The invite in the tool's output: its first line. */
const inviteIn = (out: string) => out.split('\n')[0]!;
const run = (args: string[]) => captured(() => invite(args, NOW_MS));

describe('npm run invite', () => {
  beforeEach(async () => {
    await captured(() => keys(['add-invite']));
  });

  it('prints an invite that the room accepts for that room and identity, until it expires', async () => {
    const r = await run(['--room', 'shop', '--sub', 'ip:203.0.113.7', '--minutes', '30']);
    expect(r.result).toBe(0);
    const made = inviteIn(r.out);
    const expect1 = { room: 'shop', identity: 'ip:203.0.113.7', nowSec: NOW };
    const key = (kid: string) => ring().inviteKey(kid);
    expect(await checkInvite(made, expect1, key)).toEqual({ ok: true, exp: NOW + 1800, kid: 'k1', lane: null });
    expect(await checkInvite(made, { ...expect1, nowSec: NOW + 1800 }, key)).toEqual({
      ok: false,
      reason: 'invite_expired',
    });
    expect(await checkInvite(made, { ...expect1, room: 'vip' }, key)).toEqual({
      ok: false,
      reason: 'invite_other_room',
    });
    expect(r.out).toContain(`?waiting_room_invite=${made}`);
    expect(r.out).toContain(`curl -H 'waiting-room-invite: ${made}'`);
    expect(r.out).toContain('2026-01-01T00:30:00Z');
  });

  it('links to the address npm start last served the room on (npm start -- --addr moves it)', async () => {
    await recordRoomAddress(s.config, 'http://127.0.0.1:7677/');
    const r = await run(['--room', 'shop', '--sub', 'ip:203.0.113.7']);
    expect(r.out).toMatch(/^link: +http:\/\/127\.0\.0\.1:7677\/\?waiting_room_invite=/m);
  });

  it('lasts 60 minutes by default and signs with the key --kid names', async () => {
    await captured(() => keys(['add-invite', 'partner']));
    const r = await run(['--room', 'checkout', '--sub', 'header:u-42', '--kid', 'partner']);
    expect(r.result).toBe(0);
    const check = await checkInvite(
      inviteIn(r.out),
      { room: 'checkout', identity: 'header:u-42', nowSec: NOW },
      (kid) => ring().inviteKey(kid),
    );
    expect(check).toEqual({ ok: true, exp: NOW + 3600, kid: 'partner', lane: null });
  });

  it('writes an IPv6 identity as the room groups it, by its /64', async () => {
    const r = await run(['--room', 'shop', '--sub', 'ip:2001:DB8:1:2:3:4:5:6']);
    expect(r.result).toBe(0);
    const payload = JSON.parse(Buffer.from(inviteIn(r.out).split('.')[1]!, 'base64url').toString()) as { sub: string };
    expect(payload.sub).toBe('ip:2001:db8:1:2::/64');
    expect(r.out).toContain('ip:2001:db8:1:2::/64');
  });

  it('refuses a room id or identity the room could never match, and a non-positive --minutes', async () => {
    for (const args of [
      ['--room', 'Shop', '--sub', 'none'],
      ['--room', 'shop', '--sub', '203.0.113.7'],
      ['--room', 'shop', '--sub', 'header:'],
      ['--room', 'shop', '--sub', 'none', '--minutes', '0'],
      ['--room', 'shop', '--sub', 'none', '--minutes', '1.5'],
      ['--sub', 'none'],
      ['--room', 'shop'],
    ]) {
      const r = await run(args);
      expect(r.error?.name, args.join(' ')).toBe('UsageError');
    }
  });

  it('says which command makes the key when the key file lacks it', async () => {
    const r = await run(['--room', 'shop', '--sub', 'ip:203.0.113.7', '--kid', 'k7']);
    expect(r.error?.message).toMatch(/no invite key "invite.k7" in .*keys.json/);
    expect(r.error?.message).toContain('npm run keys -- add-invite k7');
    s.cleanup();
    s = scratch(STORE);
    const none = await run(['--room', 'shop', '--sub', 'ip:203.0.113.7']);
    expect(none.error?.message).toContain('npm run keys -- add-invite k1');
  });

  it('refuses a weak invite key, as the room would', async () => {
    writeFileSync(s.keys, JSON.stringify({ 'invite.k1': Buffer.alloc(16, 1).toString('base64') }));
    const r = await run(['--room', 'shop', '--sub', 'ip:203.0.113.7']);
    expect(r.error?.message).toMatch(/"invite.k1" .*16 bytes/);
  });
});

describe('npm run invite checks the local store', () => {
  beforeEach(async () => {
    await captured(() => keys(['add-invite']));
  });

  it('refuses a room the routing does not name, listing its rooms and the command that adds one', async () => {
    const r = await run(['--room', 'sale', '--sub', 'ip:203.0.113.7']);
    expect(r.result).toBeUndefined();
    expect(r.error?.message).toMatch(/no room "sale"/);
    expect(r.error?.message).toContain('shop, checkout');
    expect(r.error?.message).toContain('npm run tune -- --routing');
    expect(r.out).toBe('');
  });

  it("refuses an identity of another kind than the room's identity setting, and says which to use", async () => {
    for (const [room, sub, want] of [
      ['shop', 'none', /--sub ip:ADDRESS/],
      ['shop', 'header:u-42', /--sub ip:ADDRESS/],
      ['checkout', 'ip:203.0.113.7', /--sub header:VALUE.*x-customer-id/],
      ['checkout', 'jwt:u-42', /--sub header:VALUE/],
    ] as const) {
      const r = await run(['--room', room, '--sub', sub]);
      expect(r.error?.message, `${room} ${sub}`).toMatch(want);
      expect(r.error?.message, `${room} ${sub}`).toContain(`npm run tune -- --room ${room} identity=`);
    }
  });

  it("reads the identity as the room merges it: the service-wide setting under the room's own", async () => {
    writeFileSync(s.config, JSON.stringify({ ...STORE, settings: JSON.stringify({ identity: 'jwt:auth' }) }));
    expect((await run(['--room', 'shop', '--sub', 'ip:203.0.113.7'])).error?.message).toMatch(/--sub jwt:SUB/);
    expect((await run(['--room', 'shop', '--sub', 'jwt:u-42'])).result).toBe(0);
    expect((await run(['--room', 'checkout', '--sub', 'header:u-42'])).result).toBe(0);
  });

  it('with --lane, makes a lane invitation of a lane the room declares, and refuses one it does not', async () => {
    writeFileSync(
      s.config,
      JSON.stringify({
        ...STORE,
        'room.checkout': JSON.stringify({ identity: 'header:x-customer-id', lanes: 'members:30' }),
      }),
    );
    const r = await run(['--room', 'checkout', '--sub', 'header:u-42', '--lane', 'members']);
    expect(r.result).toBe(0);
    expect(r.out).toContain('room checkout, lane members, for header:u-42');
    const expect1 = { room: 'checkout', identity: 'header:u-42', nowSec: NOW, lanes: ['members'] };
    expect(await checkInvite(inviteIn(r.out), expect1, (kid) => ring().inviteKey(kid))).toMatchObject({
      ok: true,
      lane: 'members',
    });
    const unknown = await run(['--room', 'shop', '--sub', 'ip:203.0.113.7', '--lane', 'members']);
    expect(unknown.error?.message).toMatch(/room shop has no lane "members".*declares no lanes/);
    expect(unknown.error?.message).toContain('npm run tune -- --room shop lanes=members:30');
    expect((await run(['--room', 'shop', '--sub', 'none', '--lane', 'general'])).error?.name).toBe('UsageError');
  });

  it('knows only the room `default` in a store without routing', async () => {
    writeFileSync(s.config, JSON.stringify({ settings: JSON.stringify({ identity: 'none' }) }));
    expect((await run(['--room', 'default', '--sub', 'none'])).result).toBe(0);
    expect((await run(['--room', 'shop', '--sub', 'none'])).error?.message).toMatch(/no room "shop".*default/);
  });

  it('reads the store --config names', async () => {
    const other = join(s.dir, 'other.json');
    writeFileSync(other, JSON.stringify({ routing: JSON.stringify({ rooms: [{ id: 'drop', routes: ['/'] }] }) }));
    expect((await run(['--room', 'drop', '--sub', 'ip:203.0.113.7', '--config', other])).result).toBe(0);
    expect((await run(['--room', 'shop', '--sub', 'ip:203.0.113.7', '--config', other])).error?.message).toMatch(
      /no room "shop"/,
    );
  });

  it('skips the check, and says so, for a Fastly service or when the store file does not exist', async () => {
    const service = await run(['--room', 'sale', '--sub', 'none', '--service', 'SVC123']);
    expect(service.result).toBe(0);
    expect(service.err).toMatch(/not checked/);
    const missing = await run(['--room', 'sale', '--sub', 'none', '--config', join(s.dir, 'missing.json')]);
    expect(missing.result).toBe(0);
    expect(missing.err).toMatch(/missing\.json.*not checked|not checked.*missing\.json/);
  });
});

describe('npm run invite from the command line', () => {
  const cli = (args: string[]) =>
    new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
      const child = execFile(
        process.execPath,
        ['--import', 'tsx', 'scripts/invite.ts', ...args],
        { cwd: repoRoot, env: { ...process.env, WR_KEYS_FILE: s.keys } },
        (_e, out, err) => resolve({ code: child.exitCode, out, err }),
      );
    });

  it('prints the usage for --help and exits 0', async () => {
    const r = await cli(['--help']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^usage: npm run invite -- --room ID --sub IDENTITY/);
  });

  it('exits 2 on a wrong command line and 1 on a missing key, without a stack trace', async () => {
    const usage = await cli(['--room', 'shop']);
    expect(usage.code).toBe(2);
    expect(usage.err).toMatch(/^npm run invite: /);
    const missing = await cli(['--room', 'shop', '--sub', 'ip:203.0.113.7']);
    expect(missing.code).toBe(1);
    expect(missing.err).toMatch(/npm run keys -- add-invite k1/);
    expect(missing.err).not.toMatch(/^\s+at /m);
  });
});

describe('docs/invites.md', () => {
  const doc = readFileSync(join(repoRoot, 'docs', 'invites.md'), 'utf8');
  const EXAMPLE_KEY = Buffer.from(Array.from({ length: 32 }, (_, i) => i)).toString('base64');
  const exampleKey = (kid: string) =>
    createKeyRing(
      async (name) => (name === `invite.${kid}` && kid === 'k1' ? EXAMPLE_KEY : null),
      () => {},
    ).inviteKey(kid);

  it("shows the tool's output for its example, made with the example key, word for word", async () => {
    expect(doc).toContain(EXAMPLE_KEY);
    writeFileSync(s.keys, JSON.stringify({ 'invite.k1': EXAMPLE_KEY }));
    const r = await run(['--room', 'shop', '--sub', 'ip:203.0.113.7', '--minutes', '60']);
    expect(r.result).toBe(0);
    expect(doc).toContain(`\`\`\`text\n${r.out}\n\`\`\``);
    const made = inviteIn(r.out);
    expect(doc).toContain(`invite   ${made}`);
    expect(
      await checkInvite(made, { room: 'shop', identity: 'ip:203.0.113.7', nowSec: NOW }, exampleKey),
    ).toMatchObject({ ok: true });
  });

  it('says that the kill switch and a closed event win over an invitation, as the room decides', () => {
    const section = doc.slice(doc.indexOf('## What the room does with one'), doc.indexOf('## Invite-only rooms'));
    expect(section).not.toMatch(/whatever the draw, the queue or the room's percentage/);
    expect(section).toMatch(/`allow_percentage = 0`[^.]*`deny_all`/);
    expect(section).toMatch(/`event_end_action = close`[^.]*`event_closed`/);
  });

  it('says which room and identity the tool refuses before signing', () => {
    const section = doc.slice(doc.indexOf('## Making one'), doc.indexOf('## The format'));
    for (const flag of ['--config', '--service']) expect(section).toContain(flag);
    expect(section).toMatch(/refuses/);
  });

  it('gives a Node.js example that makes invites the room accepts', async () => {
    const code = /```js\n([\s\S]*?)```/.exec(doc)?.[1];
    expect(code).toBeDefined();
    expect(code!.split('\n').filter((l) => l.trim() !== '').length).toBeLessThanOrEqual(12);
    expect([...code!.matchAll(/from '([^']+)'/g)].map((m) => m[1])).toEqual(['node:crypto']);
    const dir = mkdtempSync(join(tmpdir(), 'wr-invite-doc-'));
    try {
      writeFileSync(join(dir, 'make-invite.mjs'), code!);
      const before = Math.floor(Date.now() / 1000);
      const out = await new Promise<string>((resolve, reject) =>
        execFile(
          process.execPath,
          [join(dir, 'make-invite.mjs'), 'shop', 'header:u-42', '5'],
          { env: { ...process.env, INVITE_KEY: EXAMPLE_KEY } },
          (e, stdout) => (e ? reject(e) : resolve(stdout)),
        ),
      );
      const after = Math.floor(Date.now() / 1000);
      const check = await checkInvite(out.trim(), { room: 'shop', identity: 'header:u-42', nowSec: after }, exampleKey);
      expect(check).toMatchObject({ ok: true, kid: 'k1' });
      // MINUTES from the moment it ran.
      const exp = check.ok ? check.exp : 0;
      expect(exp >= before + 300 && exp <= after + 300).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
