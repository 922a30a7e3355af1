import { writeFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { signingKeyProblem } from '../../scripts/start-keys.js';
import { scratch, type Scratch } from './helpers.js';

let s: Scratch;
beforeEach(() => {
  s = scratch({ active_key: 'key1' });
});
afterEach(() => s.cleanup());

const key = Buffer.alloc(64, 9).toString('base64');

describe('signingKeyProblem', () => {
  it('is none when active_key names a usable key', async () => {
    writeFileSync(s.keys, JSON.stringify({ key1: key }));
    expect(await signingKeyProblem(s)).toBeNull();
  });

  it('never offers an invite key or the event seed as the signing key', async () => {
    writeFileSync(s.keys, JSON.stringify({ 'invite.k1': key, 'event-seed': key, key2: key }));
    const problem = (await signingKeyProblem(s))!;
    expect(problem).toContain('npm run tune -- active_key=key2');
    expect(problem).not.toContain('active_key=invite.k1');
    expect(problem).not.toContain('active_key=event-seed');
  });

  it('refuses an active_key that names an invite key: the room would not sign with it', async () => {
    s.cleanup();
    s = scratch({ active_key: 'invite.k1' });
    writeFileSync(s.keys, JSON.stringify({ 'invite.k1': key }));
    expect(await signingKeyProblem(s)).toMatch(/names an invite key .* could not sign a token/);
  });
});
