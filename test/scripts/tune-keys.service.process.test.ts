// `npm run tune -- --service SVC active_key=KID` through the real Fastly CLI against the API stand-in
// (fastly-api/): the key is looked for in the service's Secret Store before anything is written, and a
// missing one is refused, naming the keys there are and the command that adds one there.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedService, type SeededService } from '../../fastly-api/seed.js';
import { startFastlyApi, type FastlyApi } from '../../fastly-api/server.js';
import { fastlyEnv } from '../../lib/fastly-env.js';
import { repoRoot } from '../../lib/paths.js';
import { runCommand } from '../support/run-command.js';

/** `npm run tune -- ARGS` as a child process: the stand-in answers from this one, so it must not block. */
const tune = (args: string[]) => runCommand(process.execPath, ['--import', 'tsx', 'scripts/tune.ts', ...args], env);

const example = JSON.parse(readFileSync(join(repoRoot, 'local', 'config.example.json'), 'utf8')) as Record<
  string,
  string
>;
let api: FastlyApi;
let svc: SeededService;
let home: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  api = await startFastlyApi();
  svc = seedService(api, { config: example, secrets: ['key1', 'key2', 'event-seed'] });
  home = mkdtempSync(join(tmpdir(), 'wr-tune-keys-'));
  env = fastlyEnv({ url: api.url, home });
});
afterAll(async () => {
  await api?.stop();
  rmSync(home, { recursive: true, force: true });
});

describe('npm run tune -- --service SVC active_key=KID', () => {
  it('refuses a key the Secret Store does not hold, naming its keys and the command that adds one there', async () => {
    const before = api.store(svc.configStoreId);
    const r = await tune(['--service', 'SVC', 'active_key=nokey']);
    expect(r.code, r.out).toBe(1);
    expect(r.err).toContain('refused: setting "active_key" = "nokey" (service-wide, in settings)');
    expect(r.err).toContain(
      `there is no key "nokey" in the Secret Store waiting_room_keys (${svc.secretStoreId}) of service SVC`,
    );
    expect(r.err).toContain('the keys there are key1, key2');
    expect(r.err).toContain('npm run tune -- --service SVC active_key=key2');
    expect(r.err).toContain('npm run keys -- add nokey --fastly-service SVC');
    expect(r.err).toContain('nothing was written to service SVC');
    expect(api.store(svc.configStoreId)).toEqual(before);
  });

  it("refuses a room's own key the same way, with the --room command", async () => {
    const r = await tune(['--service', 'SVC', '--room', 'checkout', 'active_key=nokey']);
    expect(r.code, r.out).toBe(1);
    expect(r.err).toContain("(room checkout's own, in room.checkout)");
    expect(r.err).toContain('npm run tune -- --service SVC --room checkout active_key=key1');
  });

  it('writes a key the Secret Store holds', async () => {
    const r = await tune(['--service', 'SVC', 'active_key=key2']);
    expect(r.code, r.err).toBe(0);
    expect(JSON.parse(api.store(svc.configStoreId).settings!)).toMatchObject({ active_key: 'key2' });
  });
});
