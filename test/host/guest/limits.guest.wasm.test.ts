// Fastly's per-execution limits on the host as a process, through a js-compute guest
// (host/fixtures/limits.js): 32 Config Store lookups, 32 backend requests, 50 ms of CPU time, the
// 128 MiB memory cap; each reported once per request on stderr, and with -v a usage line per request.
// The counting itself: limits.test.ts; the hostcalls: test/host/abi/config-store.test.ts, send.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHost, type RunningHost } from '../../../lib/host-process.js';
import { startOrigin, type Origin } from '../../../lib/origin.js';
import { hostFixture } from '../../../lib/paths.js';
import { buildWasm } from '../../../lib/wasm-build.js';

let origin: Origin;
let host: RunningHost;
let relaxed: RunningHost;

const settings = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`k${i + 1}`, `v${i + 1}`]));

beforeAll(async () => {
  const wasm = await buildWasm(hostFixture('limits.js'));
  origin = await startOrigin();
  const manifest = {
    local_server: {
      backends: { origin: { url: origin.url } },
      config_stores: { settings: { format: 'inline-toml', contents: settings } },
      kv_stores: { blobs: [] },
    },
  };
  [host, relaxed] = await Promise.all([
    startHost({ wasm, manifest, verbose: 'usage' }),
    startHost({ wasm, manifest, verbose: 'usage', env: { COMPUTE_HOST_LIMITS: 'off' } }),
  ]);
});

afterAll(async () => {
  await Promise.all([host?.stop(), relaxed?.stop(), origin?.stop()]);
});

async function get(on: RunningHost, path: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${on.url}${path}`);
  const text = await res.text();
  try {
    return { status: res.status, body: JSON.parse(text) as Record<string, unknown> };
  } catch {
    return { status: res.status, body: { text } };
  }
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The limit lines stderr has for requests to `path`, once one has come: stderr and the response are
 * separate pipes, and a line written at the request's end can come after its response.
 */
async function limitLines(on: RunningHost, path: string, about = ''): Promise<string[]> {
  await on.waitForLog(new RegExp(`GET ${escape(path)}: limit: .*${about}`), 5_000, 'stderr');
  return on.errors().filter((l) => l.includes(`GET ${path}: limit:`));
}

describe('Config Store lookups', () => {
  it('answers the first 32 of a request and fails the 33rd and later, as production does', async () => {
    const { status, body } = await get(host, '/lookups?n=40');
    expect(status).toBe(200);
    const values = body.values as Array<string | null>;
    expect(values.slice(0, 32)).toEqual(Array.from({ length: 32 }, (_, i) => `v${i + 1}`));
    expect(values.slice(32)).toEqual(Array(8).fill(null));
    // js-compute's ConfigStore.get throws on the LIMITEXCEEDED status.
    expect((body.errors as Array<{ lookup: number }>).map((e) => e.lookup)).toEqual([33, 34, 35, 36, 37, 38, 39, 40]);
  });

  it('says so once for the request, in plain words, and counts its lookups on the -v usage line', async () => {
    await get(host, '/lookups?n=35');
    await host.waitForLog(/^usage: GET \/lookups\?n=35 /);
    expect(await limitLines(host, '/lookups?n=35')).toEqual([
      'compute-host: GET /lookups?n=35: limit: the 33rd Config Store lookup of this request failed (Fastly allows 32 per execution)',
    ]);
    expect(await host.waitForLog(/^usage: GET \/lookups\?n=35 /)).toMatch(
      / config_lookups=35 backend_requests=0 cpu_ms=\d+\.\d$/,
    );
  });

  it('gives each request its own 32', async () => {
    for (let i = 0; i < 3; i++) {
      const { body } = await get(host, '/lookups?n=32');
      expect(body.errors).toEqual([]);
    }
    // The usage line of the last comes after anything the requests said on stderr.
    await host.waitForLog(/^usage: GET \/lookups\?n=32 .*\n?$/);
    expect(host.errors().filter((l) => l.includes('GET /lookups?n=32: limit:'))).toEqual([]);
  });

  it('lets every lookup through with COMPUTE_HOST_LIMITS=off, and still says where production would fail', async () => {
    const { body } = await get(relaxed, '/lookups?n=40');
    expect((body.values as string[])[39]).toBe('v40');
    expect(body.errors).toEqual([]);
    expect(await limitLines(relaxed, '/lookups?n=40')).toEqual([
      'compute-host: GET /lookups?n=40: limit: the 33rd Config Store lookup of this request was let through (Fastly allows 32 per execution); not enforced (COMPUTE_HOST_LIMITS=off)',
    ]);
  });
});

describe('backend requests', () => {
  it('sends the first 32 of a request and fails the 33rd and later without sending them', async () => {
    const before = origin.received.length;
    const { status, body } = await get(host, '/backends?n=34');
    expect(status).toBe(200);
    expect(body.statuses).toEqual([...Array(32).fill(200), null, null]);
    expect((body.errors as Array<{ request: number }>).map((e) => e.request)).toEqual([33, 34]);
    expect(origin.received.length - before).toBe(32);
    expect(await limitLines(host, '/backends?n=34')).toEqual([
      'compute-host: GET /backends?n=34: limit: the 33rd backend request of this request failed (Fastly allows 32 per execution)',
    ]);
    expect(await host.waitForLog(/^usage: GET \/backends\?n=34 /)).toMatch(/ backend_requests=34 /);
  });
});

describe('memory', () => {
  // On the host with COMPUTE_HOST_LIMITS=off: touching 64 MiB costs this host some 50 ms of CPU time
  // (page faults), which would end the request on CPU time first. The memory cap is not lifted by it.
  it('holds 64 MiB, but not 200: the memory stops at 128 MiB and the request fails', async () => {
    expect(await get(relaxed, '/memory?n=64')).toEqual({ status: 200, body: { mib: 64 } });
    const { status } = await get(relaxed, '/memory?n=200');
    expect(status).toBe(500);
    // Said as the request ends, after the CPU time it took (not enforced on this host).
    expect(await limitLines(relaxed, '/memory?n=200', 'memory')).toContainEqual(
      expect.stringMatching(
        /limit: the instance's memory grew to [\d.]+ MiB, near its 128 MiB cap \(Fastly allows 128 MB of heap per execution\); a memory\.grow past the cap fails$/,
      ),
    );
    // Only that request: the next one is served.
    expect((await get(relaxed, '/memory?n=1')).status).toBe(200);
  });
});

describe('CPU time', () => {
  it('ends a request past 50 ms of CPU time at its next hostcall: the request fails, and the host says why', async () => {
    expect((await get(host, '/spin?n=0')).status).toBe(200);
    const { status } = await get(host, '/spin?n=1000');
    expect(status).toBe(500);
    expect(await limitLines(host, '/spin?n=1000')).toEqual([
      expect.stringMatching(
        /limit: the request used \d+\.\d ms of CPU time, past Fastly's 50 ms per execution; its execution was ended$/,
      ),
    ]);
    expect((await get(host, '/spin?n=0')).status).toBe(200);
  });

  // The host's own work inside hostcalls (here: copying 1 MiB out of the guest's memory and into the
  // KV store, 512 times) cost this host 100 to 290 ms of CPU time, and Fastly's native hostcalls
  // a fraction of it: it is not the guest's. The guest computing between hostcalls is (/spin above).
  it("charges the guest its own CPU time, not the host's inside hostcalls: 512 MiB through KV puts is served", async () => {
    const { status, body } = await get(host, '/puts?n=512');
    expect({ status, body }).toEqual({ status: 200, body: { puts: 512, bytes: 1 << 20 } });
    const usage = await host.waitForLog(/^usage: GET \/puts\?n=512 /);
    console.log(`512 x 1 MiB KV puts: ${usage}`);
    expect(host.errors().filter((l) => l.includes('GET /puts?n=512: limit:'))).toEqual([]);
    expect((await get(host, '/spin?n=1000')).status).toBe(500);
  });

  it('lets it run with COMPUTE_HOST_LIMITS=off, and says so', async () => {
    const { status } = await get(relaxed, '/spin?n=1000');
    expect(status).toBe(200);
    expect(await limitLines(relaxed, '/spin?n=1000')).toEqual([
      expect.stringMatching(
        /limit: the request used \d+\.\d ms of CPU time \(Fastly allows 50 ms per execution\); not enforced \(COMPUTE_HOST_LIMITS=off\)$/,
      ),
    ]);
  });
});
