import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { signingKeyProblem } from '../../scripts/start-keys.js';

const dir = mkdtempSync(join(tmpdir(), 'wr-start-keys-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const KEY = Buffer.alloc(32, 7).toString('base64');
const routing = JSON.stringify({
  rooms: [
    { id: 'shop', routes: ['/'] },
    { id: 'checkout', routes: ['/checkout'] },
  ],
  default_room: 'shop',
});

function files(config: Record<string, string>, keys: Record<string, string>): { config: string; keys: string } {
  const f = { config: join(dir, `c${Math.random()}.json`), keys: join(dir, `k${Math.random()}.json`) };
  writeFileSync(f.config, JSON.stringify(config));
  writeFileSync(f.keys, JSON.stringify(keys));
  return f;
}

describe('npm start: can every room sign a token?', () => {
  it('reads active_key from the service-wide settings, where the tools now write it', async () => {
    const problem = await signingKeyProblem(files({ settings: JSON.stringify({ active_key: 'key2' }) }, { key1: KEY }));
    expect(problem).toContain('active_key is "key2" but there is no key "key2"');
    expect(problem).toContain('npm run tune -- active_key=key1');
    expect(
      await signingKeyProblem(files({ settings: JSON.stringify({ active_key: 'key1' }) }, { key1: KEY })),
    ).toBeNull();
  });

  it('names the room whose own active_key has no key', async () => {
    const config = {
      routing,
      settings: JSON.stringify({ active_key: 'key1' }),
      'room.checkout': JSON.stringify({ active_key: 'gone' }),
    };
    const problem = await signingKeyProblem(files(config, { key1: KEY }));
    expect(problem).toContain('active_key is "gone" in room checkout but there is no key "gone"');
    expect(problem).toContain('npm run tune -- --room checkout active_key=key1');
  });

  it('never offers an invite key or the event seed as the signing key', async () => {
    const problem = (await signingKeyProblem(
      files({ settings: JSON.stringify({ active_key: 'key1' }) }, { 'invite.k1': KEY, 'event-seed': KEY, key2: KEY }),
    ))!;
    expect(problem).toContain('npm run tune -- active_key=key2');
    expect(problem).not.toContain('active_key=invite.k1');
    expect(problem).not.toContain('active_key=event-seed');
  });

  it('refuses an active_key that names an invite key: the room would not sign with it', async () => {
    const problem = await signingKeyProblem(
      files({ settings: JSON.stringify({ active_key: 'invite.k1' }) }, { 'invite.k1': KEY }),
    );
    expect(problem).toMatch(/names an invite key .* could not sign a token/);
  });
});
