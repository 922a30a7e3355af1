// fastly compute publish meeting Fastly's faults, through the real CLI against the stand-in: a refused
// package upload and a refused activation on a new service. What an operator would notice: publish
// exits non-zero naming the step, the half-made service is deleted and its id taken out of fastly.toml
// (so the next publish starts over), the stores it made stay, and the next publish links them again
// rather than making a second set, holding [setup]'s values.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseFault } from '../../fastly-api/faults.js';
import { startFastlyApi, type FastlyApi } from '../../fastly-api/server.js';
import { fastlyBin } from '../../lib/fastly-cli.js';
import { fastlyEnv } from '../../lib/fastly-env.js';
import { CONFIG_STORE, KEY_STORE, PAGE_STORE } from '../../src/fastly/names.js';
import { stageProject, type Stage } from '../../rehearse/index.js';
import { runToEnd } from '../../lib/run-to-end.js';

let api: FastlyApi;
let stage: Stage;
let home: string;
const publish = () =>
  runToEnd(
    fastlyBin,
    ['compute', 'publish', '--non-interactive', '--status-check-off', '--domain', 'shop.example.com'],
    {
      cwd: stage.dir,
      env: fastlyEnv({ url: api.url, home }),
    },
  );

beforeAll(async () => {
  api = await startFastlyApi();
  stage = await stageProject();
  home = mkdtempSync(join(tmpdir(), 'wr-seams-publish-'));
});
afterAll(async () => {
  await api.stop();
  await stage.remove();
  rmSync(home, { recursive: true, force: true });
});

describe('fastly compute publish when Fastly refuses a step', () => {
  it.each([
    [
      'the package upload',
      'PUT /service/*/version/1/package 503 1',
      /✗ Uploading package[\s\S]*Cleaning up service[\s\S]*ERROR: the Fastly API returned 503/,
    ],
    [
      'the activation',
      'PUT /service/*/version/1/activate 503 1',
      /✗ Activating service \(version 1\)[\s\S]*Cleaning up service[\s\S]*ERROR: the Fastly API returned 503/,
    ],
  ])(
    'refused %s: it says so, deletes the half-made service, and the next publish reuses the stores',
    async (_what, fault, says) => {
      api.faults.push(parseFault(fault));
      const failed = await publish();
      expect(failed.code).not.toBe(0);
      expect(failed.out + failed.err).toMatch(says);
      expect(api.services.byId.size).toBe(0);
      expect(await stage.serviceId()).toBeNull();
      const stores = () => ({
        config: [...api.config.byId.values()].map((s) => s.name).sort(),
        secret: [...api.secrets.byId.values()].map((s) => s.name),
      });
      expect(stores()).toEqual({ config: [CONFIG_STORE, PAGE_STORE].sort(), secret: [KEY_STORE] });

      const again = await publish();
      expect(again.code, again.err).toBe(0);
      const id = await stage.serviceId();
      expect(id).not.toBeNull();
      expect(stores()).toEqual({ config: [CONFIG_STORE, PAGE_STORE].sort(), secret: [KEY_STORE] });
      const links = api.services.links(id!).map((l): [string, string] => [l.name, l.resource_id]);
      const byName = new Map([...api.config.byId.values(), ...api.secrets.byId.values()].map((s) => [s.name, s.id]));
      expect(new Map(links)).toEqual(byName);
      // and the reused config store holds [setup]'s values, rewritten by the second publish
      const config = api.store(byName.get(CONFIG_STORE)!);
      expect(Object.keys(config).sort()).toEqual([
        'room.main.allow_percentage',
        'room.main.live',
        'routing',
        'settings',
      ]);
      expect(JSON.parse(config.settings!)).toMatchObject({ allow_percentage: '100', active_key: 'key1' });
      // ready for the next case: no service, no id in fastly.toml (the stores stay, as on Fastly)
      const v = api.services.byId.get(id!)!.versions[0]!;
      v.active = false;
      api.services.deleteService(id!);
      await stage.forgetService();
    },
  );
});
