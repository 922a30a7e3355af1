// The room on services set up unlike the usual test room: stores missing or broken (it must keep
// serving, fail open where the design says so, and name the store), and visitors over IPv6.
import { afterEach, expect, it } from 'vitest';
import { groupAddress } from '../../src/core/request/identity.js';
import { startHost, type RunningHost } from '../../lib/host-process.js';
import { claimsOf, roomCookieValue, roomCookies } from '../../lib/mint.js';
import { startEchoOrigin, type EchoOrigin } from '../../lib/echo-origin.js';
import { ensureRoomWasm } from '../../lib/room-wasm.js';
import { mintToken, roomManifest, startRoom, storeFiles, waitFor } from '../../lib/room-host.js';
import { storeFromSettings } from '../../src/core/settings/index.js';

let host: RunningHost | undefined;
let origin: EchoOrigin | undefined;
afterEach(async () => {
  await host?.stop();
  await origin?.close();
  host = undefined;
  origin = undefined;
});

it('with no stores at all, visitors reach the origin and the operator is told why', async () => {
  origin = await startEchoOrigin();
  host = await startHost({
    wasm: await ensureRoomWasm(),
    manifest: { local_server: { backends: { origin: { url: origin.url } } } },
  });
  const res = await fetch(`${host.url}/shop`, { headers: { cookie: 'a=1; waiting_room_default=junk' } });
  expect(res.status).toBe(200);
  expect(res.headers.get('x-echo')).toBe('1');
  // Nothing to sign with: no cookie, and the room cookie still never reaches the origin.
  expect(roomCookies(res)).toEqual([]);
  const { echo } = (await res.json()) as { echo: { headers: Record<string, string> } };
  expect(echo.headers.cookie).toBe('a=1');
  const errors = host.errors().join('\n');
  expect(errors).toMatch(/waiting_room_config/);
  expect(errors).toMatch(/allow_percentage/);
});

it('a page store entry that is not base64 falls back to the built-in page and names the entry', async () => {
  origin = await startEchoOrigin();
  const files = {
    [storeFiles.config]: JSON.stringify(storeFromSettings({ allow_percentage: '50', active_key: 'k' })),
    [storeFiles.keys]: JSON.stringify({ k: Buffer.alloc(64, 5).toString('base64') }),
    [storeFiles.pages]: JSON.stringify({ startwaiting: '%%% not base64 %%%' }),
  };
  host = await startHost({ wasm: await ensureRoomWasm(), files, manifest: roomManifest(origin.url) });
  const res = await fetch(`${host.url}/`);
  const body = await res.text();
  expect(res.status).toBe(200);
  expect(body).toContain('You are in the queue');
  expect(host.errors().join('\n')).toMatch(/waiting_room_pages\.startwaiting/);
});

it('a service without the pages store serves the built-in pages and says so once per sandbox, not per request', async () => {
  origin = await startEchoOrigin();
  const manifest = roomManifest(origin.url) as { local_server: { config_stores: Record<string, unknown> } };
  delete manifest.local_server.config_stores.waiting_room_pages;
  const files = {
    [storeFiles.config]: JSON.stringify(storeFromSettings({ allow_percentage: '0', active_key: 'k' })),
    [storeFiles.keys]: JSON.stringify({ k: Buffer.alloc(64, 5).toString('base64') }),
  };
  // The host's profile line names each request's place in its sandbox, so the test knows how many
  // sandboxes served (a loaded machine may start a second one when a request comes late).
  host = await startHost({ wasm: await ensureRoomWasm(), files, manifest, env: { COMPUTE_HOST_PROFILE: '1' } });
  // One after another: each request goes to the sandbox the one before left waiting for the next.
  const requests = 6;
  for (let i = 0; i < requests; i++) {
    const res = await fetch(`${host.url}/`);
    expect(await res.text()).toMatch(/<html/i);
  }
  // Each request's profile line is written once its run ends, which may be after its answer arrived:
  // read the sandboxes only once every request has its line, or the last new sandbox goes uncounted.
  await waitFor(
    () => (host!.errors().filter((line) => line.startsWith('profile:')).length >= requests ? true : undefined),
    10_000,
  );
  const sandboxes = host.errors().filter((line) => line.includes('(request 1 of this sandbox)')).length;
  const told = host.errors().filter((line) => line.includes('store "waiting_room_pages" could not be opened'));
  expect(sandboxes).toBeGreaterThan(0);
  expect(sandboxes).toBeLessThan(requests);
  expect(told).toHaveLength(sandboxes);
});

it('an IPv6 visitor is bound to its /64, and the log does not show the address', async () => {
  const room = await startRoom({ address: '::1', settings: { allow_percentage: '50', wait_period_duration: '60' } });
  try {
    const res = await fetch(`${room.url}/`);
    const token = roomCookieValue(res);
    expect(token).not.toBeNull();
    const { exp } = claimsOf(token!);
    // ::1 is in 0:0:0:0::/64: the identity the core derives for the whole /64.
    expect(token).toBe(await mintToken(room, { dec: 'wait', exp, identity: `ip:${groupAddress('::1')}` }));
    const line = await room.waitForLog(/:: \{/);
    expect(line).not.toMatch(/::1|0:0:0:0/);
  } finally {
    await room.stop();
  }
});
