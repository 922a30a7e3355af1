// Every API fault x every tool: tune (--service), keys (--fastly-service), pages (--fastly-service, its
// printed commands run in a shell), event (seed --fastly-service) and the controller (--service), each
// run as a process through the real Fastly CLI against the stand-in of Fastly's API answering every
// call 400, 404, 429, 503 or JSON of the wrong shape. For each: a clear message naming what failed
// (not a raw stack, not the CLI's "please file an issue" alone), a non-zero exit for a tool (the
// controller keeps running, holds and says so), a bounded number of calls, and nothing half-written.
// invite never calls the API (`--service` only skips its local checks): it faces store-file faults
// instead, a missing or corrupt local key file. One stand-in per fault, the tools run side by side.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseFault } from '../../fastly-api/faults.js';
import { seedService, type SeededService } from '../../fastly-api/seed.js';
import { startFastlyApi, type FastlyApi } from '../../fastly-api/server.js';
import { fastlyEnv } from '../../lib/fastly-env.js';
import { controlProcess, TWO_ROOMS } from '../control/control-process.js';
import { runCommand as run, type Run } from '../support/run-command.js';

/** The answers every API call of the run meets. */
const FAULTS = ['400', '404', '429', '503', 'wrong-json'] as const;
/** Every route the tools reach (the account endpoint's OpenID metadata aside: the CLI reads it before anything). */
const everyRoute = (answer: string) => [parseFault(`* /service/** ${answer}`), parseFault(`* /resources/** ${answer}`)];

interface Stage {
  api: FastlyApi;
  svc: SeededService;
  env: NodeJS.ProcessEnv;
  home: string;
}
const stages = new Map<string, Stage>();
const SEED = {
  ...TWO_ROOMS,
  settings: JSON.stringify({ wait_period_duration: '30', allow_percentage: '50', active_key: 'key1' }),
};

beforeAll(async () => {
  for (const answer of FAULTS) {
    const api = await startFastlyApi({ faults: everyRoute(answer) });
    const svc = seedService(api, { config: SEED, secrets: ['key1'] });
    const home = mkdtempSync(join(tmpdir(), `wr-seams-${answer}-`));
    stages.set(answer, {
      api,
      svc,
      home,
      env: fastlyEnv({ url: api.url, home }),
    });
  }
});
afterAll(async () => {
  for (const s of stages.values()) {
    await s.api.stop();
    rmSync(s.home, { recursive: true, force: true });
  }
});

const tsx = (script: string, args: string[], env: NodeJS.ProcessEnv) =>
  run(process.execPath, ['--import', 'tsx', script, ...args], env);

/** What no message should be: a stack trace, or the CLI's bug-report line as the only explanation. */
function clear(err: string): void {
  expect(err).not.toMatch(/\n\s+at .+:\d+:\d+\)?\n/);
  const said = err
    .split('\n')
    .filter((l) => l.trim() !== '' && !/please file an issue|github\.com\/fastly\/cli/i.test(l));
  expect(said.length, err).toBeGreaterThan(0);
}

/** The tools, each with what it must name when the API fails it. */
const TOOLS: { name: string; go: (s: Stage) => Promise<Run>; names: RegExp }[] = [
  {
    name: 'tune --service',
    go: (s) => tsx('scripts/tune.ts', ['--service', 'SVC', 'allow_percentage=10'], s.env),
    names: /fastly (service resource-link list|config-store-entry \w+) failed|could not read|no store linked/,
  },
  {
    name: 'keys rotate --fastly-service',
    go: (s) => tsx('scripts/keys.ts', ['rotate', 'key2', '--fastly-service', 'SVC'], s.env),
    names:
      /fastly (service resource-link list|config-store-entry \w+|secret-store-entry \w+) failed|could not read|no store linked/,
  },
  {
    name: 'event seed --fastly-service',
    go: (s) => tsx('scripts/event.ts', ['seed', '--fastly-service', 'SVC', '--file', join(s.home, 'keys.json')], s.env),
    names: /fastly (service resource-link list|secret-store-entry \w+) failed|could not read|no store linked/,
  },
  {
    name: 'pages --fastly-service, its commands run',
    go: async (s) => {
      const printed = await tsx('scripts/pages-to-store.ts', ['--fastly-service', 'SVC'], s.env);
      expect(printed.code, printed.err).toBe(0);
      return run('bash', ['-e'], s.env, printed.out);
    },
    names: /ERROR: the Fastly API returned|ERROR:/,
  },
];

describe('every API fault x every tool', () => {
  it.each(FAULTS)(
    'the API answering %s: each tool exits non-zero, names what failed, makes few calls, and writes nothing',
    async (answer) => {
      const s = stages.get(answer)!;
      const before = {
        config: s.api.store(s.svc.configStoreId),
        pages: s.api.store(s.svc.pageStoreId),
        secrets: s.api.secrets.names(s.svc.secretStoreId),
      };
      for (const tool of TOOLS) {
        const from = s.api.calls.length;
        const r = await tool.go(s);
        expect(r.code, `${tool.name}: ${r.err}`).not.toBe(0);
        expect(r.err, tool.name).toMatch(tool.names);
        clear(r.err);
        // No loop: a tool makes a handful of calls and stops at the first refusal.
        expect(s.api.calls.slice(from).filter((c) => c.limited).length, tool.name).toBeLessThanOrEqual(3);
      }
      expect({
        config: s.api.store(s.svc.configStoreId),
        pages: s.api.store(s.svc.pageStoreId),
        secrets: s.api.secrets.names(s.svc.secretStoreId),
      }).toEqual(before);
    },
  );
});

describe('a multi-key write the API refuses half-way', () => {
  it('tune says which keys it wrote and which not, and the same command run again finishes it', async () => {
    const api = await startFastlyApi();
    const home = mkdtempSync(join(tmpdir(), 'wr-seams-half-'));
    try {
      const svc = seedService(api, { config: SEED });
      const env = fastlyEnv({ url: api.url, home });
      const routing = join(home, 'routing.json');
      writeFileSync(
        routing,
        JSON.stringify({
          rooms: [
            { id: 'shop', routes: ['/'] },
            { id: 'checkout', routes: ['/checkout', '/pay'] },
          ],
          default_room: 'shop',
        }),
      );
      api.faults.push(parseFault('PUT /resources/stores/config/*/item/settings 503 1'));
      const half = await tsx('scripts/tune.ts', ['--service', 'SVC', '--routing', routing, 'allow_percentage=10'], env);
      expect(half.code).not.toBe(0);
      clear(half.err);
      expect(half.err).toContain('503 Service Unavailable');
      expect(half.err).toContain(
        // The rooms' status bases (docs/status.md) go after the settings they copy: not written either.
        `Config Store ${svc.configStoreId} is half-changed: written routing; not written settings, room.shop.live, room.checkout.live. Run the same command again to finish`,
      );
      expect(api.store(svc.configStoreId).routing).toContain('/pay');
      expect(JSON.parse(api.store(svc.configStoreId).settings!).allow_percentage).toBe('50');
      const again = await tsx(
        'scripts/tune.ts',
        ['--service', 'SVC', '--routing', routing, 'allow_percentage=10'],
        env,
      );
      expect(again.code, again.err).toBe(0);
      expect(JSON.parse(api.store(svc.configStoreId).settings!).allow_percentage).toBe('10');
      for (const room of ['shop', 'checkout'])
        expect(JSON.parse(api.store(svc.configStoreId)[`room.${room}.live`]!).status_basis).toContain(
          '"allow_percentage":"10"',
        );
    } finally {
      await api.stop();
      rmSync(home, { recursive: true, force: true });
    }
  });
});

describe('a key rotation the API refuses half-way', () => {
  it('keys says the secret was made but active_key not switched, and the command it names finishes it', async () => {
    const api = await startFastlyApi();
    const home = mkdtempSync(join(tmpdir(), 'wr-seams-keys-'));
    try {
      const svc = seedService(api, { config: SEED, secrets: ['key1'] });
      const env = fastlyEnv({ url: api.url, home });
      api.faults.push(parseFault('PUT /resources/stores/config/*/item/settings 400 1'));
      const half = await tsx('scripts/keys.ts', ['rotate', 'key2', '--fastly-service', 'SVC'], env);
      expect(half.code).not.toBe(0);
      clear(half.err);
      expect(half.err).toContain(
        'secret "key2" was created in the service\'s Secret Store, but active_key was not switched to it',
      );
      expect(Object.keys(api.secrets.names(svc.secretStoreId)).sort()).toEqual(['key1', 'key2']);
      expect(JSON.parse(api.store(svc.configStoreId).settings!).active_key).toBe('key1');
      const finish = /Finish with: npm run tune -- (.*)$/m.exec(half.err)![1]!.split(' ');
      const done = await tsx('scripts/tune.ts', finish, env);
      expect(done.code, done.err).toBe(0);
      expect(JSON.parse(api.store(svc.configStoreId).settings!).active_key).toBe('key2');
    } finally {
      await api.stop();
      rmSync(home, { recursive: true, force: true });
    }
  });
});

describe('invite never calls the API: store-file faults instead', () => {
  it.each([
    ['missing', null, /no invite key "invite\.k1" in .*keys\.json|cannot read|does not exist/],
    [
      'corrupt',
      '{"invite.k1": ',
      /keys\.json.*(not valid JSON|not JSON|corrupt)|(not valid JSON|not JSON).*keys\.json/,
    ],
  ] as const)('a %s key file: exit non-zero, naming the file, no stack', async (_kind, text, message) => {
    const dir = mkdtempSync(join(tmpdir(), 'wr-seams-invite-'));
    try {
      const keys = join(dir, 'keys.json');
      if (text !== null) writeFileSync(keys, text);
      const r = await tsx(
        'scripts/invite.ts',
        ['--room', 'shop', '--sub', 'ip:192.0.2.1', '--keys', keys, '--service', 'SVC'],
        process.env,
      );
      expect(r.code).not.toBe(0);
      expect(r.err).toMatch(message);
      clear(r.err);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the controller against every API fault', () => {
  it('keeps running, holds and says why, and calls the API only a few times', async () => {
    const runs = await Promise.all(
      FAULTS.map(async (answer) => {
        const s = stages.get(answer)!;
        const dir = mkdtempSync(join(tmpdir(), `wr-seams-control-${answer}-`));
        const from = s.api.calls.length;
        const control = await controlProcess(['--source', 'log-tail:SVC', '--service', 'SVC'], s.env, dir);
        return { answer, s, dir, from, control, started: Date.now() };
      }),
    );
    try {
      for (const r of runs) {
        await expect
          .poll(() => r.control.err, { timeout: 30_000, interval: 250 })
          .toMatch(/holding, writing nothing: /);
      }
      // 15 s after each start: still running, and a handful of calls (the store's id, a retried read, log-tail starts).
      await new Promise((resolve) =>
        setTimeout(resolve, Math.max(0, 15_000 - (Date.now() - Math.min(...runs.map((r) => r.started))))),
      );
      for (const r of runs) {
        expect(r.control.exitCode, `${r.answer}: ${r.control.err}`).toBeNull();
        const held = /holding, writing nothing: (.*)/.exec(r.control.err)![1]!;
        expect(held, r.answer).toMatch(
          r.answer === '429'
            ? /429/
            : r.answer === 'wrong-json'
              ? /cannot read the settings|log source fails/
              : new RegExp(`cannot read the settings.*${r.answer}|log source fails.*${r.answer}`),
        );
        clear(r.control.err);
        const calls = r.s.api.calls.slice(r.from).filter((c) => c.limited).length;
        expect(calls, `${r.answer}: ${calls} calls`).toBeLessThanOrEqual(15);
        expect((await r.control.snapshot()).holding).toBe(true);
      }
    } finally {
      for (const r of runs) {
        await r.control.stop();
        rmSync(r.dir, { recursive: true, force: true });
      }
    }
  }, 90_000);
});
