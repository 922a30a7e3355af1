import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rename, stat, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { manifestText, startHost, type RunningHost } from '../../lib/host-process.js';
import { hostFixture } from '../../lib/paths.js';
import { buildWasm } from '../../lib/wasm-build.js';

// Store layouts as Viceroy reads them from [local_server]; the files sit next to fastly.toml.
const manifest = {
  local_server: {
    config_stores: {
      inline_settings: { format: 'inline-toml', contents: { greeting: 'hello', 'with.dot': 'dotted' } },
      file_settings: { format: 'json', file: 'settings.json' },
      pages: { format: 'json', file: 'pages.json' },
      // Viceroy treats `config_stores` as an alias of `dictionaries` (a manifest may not hold both),
      // so `fastly:dictionary` opens this store too; the `dictionaries` spelling is tested below.
      legacy_dict: { format: 'inline-toml', contents: { colour: 'blue' } },
    },
    secret_stores: {
      inline_secrets: [
        { key: 'api_key', data: 's3cret-data' },
        { key: 'from_file', file: 'secret.txt' },
      ],
      json_secrets: { file: 'secrets.json', format: 'json' },
      env_secrets: [{ key: 'from_env', env: 'WR_TEST_SECRET' }],
    },
    kv_stores: {
      kv: [
        { key: 'seeded', data: 'from the manifest' },
        { key: 'seeded_file', file: 'kv-entry.txt' },
      ],
      kv_json: { file: 'kv.json', format: 'json' },
    },
    acls: { blocklist: 'blocklist.json' },
    geolocation: {
      format: 'inline-toml',
      addresses: {
        '127.0.0.1': { as_name: 'Loopback Networks', as_number: 64500, city: 'Testville', country_code: 'NL' },
      },
    },
    device_detection: {
      format: 'inline-toml',
      user_agents: {
        'TestPhone/1.0': { device: { name: 'Test Phone', brand: 'Acme', is_mobile: true, is_tablet: false } },
      },
    },
  },
};

// A Config Store value (a page template) holds at most 8,000 characters; multibyte text makes that many more bytes.
const longAscii = Array.from({ length: 8000 }, (_, i) => String.fromCharCode(97 + (i % 26))).join('');
const longUtf8 = 'é€'.repeat(4000);

const files = {
  'pages.json': JSON.stringify({ startwaiting: longAscii, keepwaiting: longUtf8 }),
  'kv.json': JSON.stringify({ plain: 'plain value', with_meta: { data: 'value with metadata', metadata: 'meta' } }),
  'settings.json': JSON.stringify({ mode: 'before', limit: '10' }),
  'secret.txt': 'secret from a file',
  'secrets.json': JSON.stringify({ signing_key: 'json-secret' }),
  'kv-entry.txt': 'kv value from a file',
  'blocklist.json': JSON.stringify({
    entries: [
      { prefix: '192.0.2.0/24', action: 'BLOCK' },
      { prefix: '192.0.2.128/25', action: 'ALLOW' },
      { prefix: '2001:db8::/32', action: 'BLOCK' },
    ],
  }),
};

let host: RunningHost;

async function get(pathAndQuery: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${host.url}${pathAndQuery}`);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

beforeAll(async () => {
  host = await startHost({
    wasm: await buildWasm(hostFixture('stores.js')),
    manifest,
    files,
    env: { WR_TEST_SECRET: 'secret from the environment' },
  });
});

afterAll(async () => {
  await host?.stop();
});

describe('config stores and dictionaries', () => {
  it.each([
    ['inline-toml config store', '/config?store=inline_settings&key=greeting', 'hello'],
    ['inline-toml key with a dot', '/config?store=inline_settings&key=with.dot', 'dotted'],
    ['json file config store', '/config?store=file_settings&key=limit', '10'],
    ['dictionary', '/dict?store=legacy_dict&key=colour', 'blue'],
    ['missing config key', '/config?store=inline_settings&key=nope', null],
    ['missing dictionary key', '/dict?store=legacy_dict&key=nope', null],
  ])('%s', async (_name, url, value) => {
    expect(await get(url)).toEqual({ status: 200, body: { value } });
  });

  it('returns values of the Config Store maximum (8,000 characters) intact, multibyte included', async () => {
    expect(await get('/config?store=pages&key=startwaiting')).toEqual({ status: 200, body: { value: longAscii } });
    expect(await get('/config?store=pages&key=keepwaiting')).toEqual({ status: 200, body: { value: longUtf8 } });
  });

  it('reports a store that is not configured as an error to the app', async () => {
    const { status, body } = await get('/config?store=not_configured&key=greeting');
    expect(status).toBe(500);
    expect(body.error).toEqual(expect.any(String));
  });
});

describe('a manifest with `dictionaries` and no geolocation', () => {
  let plain: RunningHost;
  const read = async (route: string): Promise<unknown> => (await fetch(`${plain.url}${route}`)).json();

  beforeAll(async () => {
    plain = await startHost({
      wasm: await buildWasm(hostFixture('stores.js')),
      manifest: { local_server: { dictionaries: { old_style: { format: 'inline-toml', contents: { edge: 'yes' } } } } },
    });
  });
  afterAll(async () => {
    await plain?.stop();
  });

  it('serves the dictionary through both fastly:dictionary and fastly:config-store, missing key null', async () => {
    expect(await read('/dict?store=old_style&key=edge')).toEqual({ value: 'yes' });
    expect(await read('/config?store=old_style&key=edge')).toEqual({ value: 'yes' });
    expect(await read('/dict?store=old_style&key=nope')).toEqual({ value: null });
  });

  it("answers Viceroy's default geolocation for loopback and none for other addresses", async () => {
    expect(await read('/geo')).toMatchObject({
      ip: '127.0.0.1',
      geo: { as_name: 'Fastly, Inc', as_number: 54113, city: 'San Francisco', country_code: 'US' },
    });
    expect(await read('/geo?ip=192.0.2.1')).toEqual({ ip: '192.0.2.1', geo: null });
  });
});

describe('secret stores', () => {
  it.each([
    ['inline data', '/secret?store=inline_secrets&key=api_key', 's3cret-data'],
    ['file per secret', '/secret?store=inline_secrets&key=from_file', 'secret from a file'],
    ['json file store', '/secret?store=json_secrets&key=signing_key', 'json-secret'],
    ['environment variable', '/secret?store=env_secrets&key=from_env', 'secret from the environment'],
    ['missing secret', '/secret?store=inline_secrets&key=nope', null],
    ['missing secret in json store', '/secret?store=json_secrets&key=nope', null],
  ])('%s', async (_name, url, value) => {
    expect(await get(url)).toEqual({ status: 200, body: { value } });
  });
});

describe('device detection', () => {
  it('answers from [local_server.device_detection] for a listed user agent, and none for any other', async () => {
    expect(await get('/device?ua=TestPhone%2F1.0')).toEqual({
      status: 200,
      body: { name: 'Test Phone', brand: 'Acme', isMobile: true, isTablet: false },
    });
    expect(await get('/device?ua=Unlisted%2F2.0')).toEqual({ status: 200, body: { device: null } });
  });
});

describe('KV store', () => {
  it('refuses to open a store the manifest does not name, as Viceroy does (an invalid argument, not a missing key)', async () => {
    const r = await get('/kv-open?store=nosuch');
    expect(r.status).toBe(200);
    // js-compute names the store when the host answers INVAL; on NONE it says only "A `None` error".
    expect(r.body).toEqual({ threw: expect.stringMatching(/No KVStore named 'nosuch' exists/) });
    expect(await get('/kv-open?store=kv')).toEqual({ status: 200, body: { opened: true } });
  });

  it('reads entries seeded from the manifest (inline data and file)', async () => {
    expect(await get('/kv?store=kv&key=seeded')).toEqual({ status: 200, body: { value: 'from the manifest' } });
    expect(await get('/kv?store=kv&key=seeded_file')).toEqual({ status: 200, body: { value: 'kv value from a file' } });
    expect(await get('/kv?store=kv&key=absent')).toEqual({ status: 200, body: { value: null } });
  });

  it('reads a store seeded from a JSON file (plain values and values with metadata)', async () => {
    expect(await get('/kv?store=kv_json&key=plain')).toEqual({ status: 200, body: { value: 'plain value' } });
    expect(await get('/kv?store=kv_json&key=with_meta')).toEqual({
      status: 200,
      body: { value: 'value with metadata' },
    });
  });

  it('stores and returns a 1 MB value', async () => {
    const value = longAscii.repeat(125);
    const put = await fetch(`${host.url}/kv?store=kv&key=large`, { method: 'PUT', body: value });
    expect(put.status).toBe(200);
    expect(await get('/kv?store=kv&key=large')).toEqual({ status: 200, body: { value } });
  });

  it('keeps a value put by one request for the next request (fresh instance each time)', async () => {
    const put = await fetch(`${host.url}/kv?store=kv&key=written`, { method: 'PUT', body: 'put by a request' });
    expect(put.status).toBe(200);
    expect(await get('/kv?store=kv&key=written')).toEqual({ status: 200, body: { value: 'put by a request' } });
  });
});

describe('logging', () => {
  it('writes `endpoint :: message` lines to the host stdout', async () => {
    const message = `visitor queued ${Date.now()}`;
    const res = await get(`/log?endpoint=wr_events&message=${encodeURIComponent(message)}`);
    expect(res.status).toBe(200);
    expect(await host.waitForLog(/^wr_events :: visitor queued/)).toBe(`wr_events :: ${message}`);
  });

  it('keeps each line whole when many requests log long messages at once', async () => {
    const messages = Array.from(
      { length: 30 },
      (_, i) => `burst-${i}-${String.fromCharCode(97 + (i % 26)).repeat(3000)}`,
    );
    await Promise.all(
      messages.map(async (m) => (await fetch(`${host.url}/log?endpoint=wr_burst&message=${m}`)).text()),
    );
    await Promise.all(messages.map((_, i) => host.waitForLog(new RegExp(`^wr_burst :: burst-${i}-`))));
    const lines = host.logs().filter((line) => line.includes('burst-'));
    expect(lines.sort()).toEqual(messages.map((m) => `wr_burst :: ${m}`).sort());
  });
});

describe('geolocation and client address', () => {
  it('sees the downstream client as 127.0.0.1', async () => {
    expect(await get('/client')).toEqual({ status: 200, body: { address: '127.0.0.1' } });
  });

  it('sees an IPv6 client as ::1 when the host listens on [::1]', async () => {
    const v6 = await startHost({ wasm: await buildWasm(hostFixture('stores.js')), address: '::1' });
    try {
      expect(v6.url).toMatch(/^http:\/\/\[::1\]:\d+$/);
      expect(await (await fetch(`${v6.url}/client`)).json()).toEqual({ address: '::1' });
    } finally {
      await v6.stop();
    }
  });

  it('looks up 127.0.0.1 in the [local_server.geolocation] data', async () => {
    const { status, body } = await get('/geo');
    expect(status).toBe(200);
    expect(body.ip).toBe('127.0.0.1');
    expect(body.geo).toMatchObject({
      as_name: 'Loopback Networks',
      as_number: 64500,
      city: 'Testville',
      country_code: 'NL',
    });
  });
});

describe('ACLs', () => {
  it.each([
    ['an address in a /24', '192.0.2.7', { action: 'BLOCK', prefix: '192.0.2.0/24' }],
    ['the longest matching prefix', '192.0.2.200', { action: 'ALLOW', prefix: '192.0.2.128/25' }],
    ['an IPv6 address', '2001:db8::1', { action: 'BLOCK', prefix: '2001:db8::/32' }],
    ['an address outside every prefix', '198.51.100.1', null],
  ])('matches %s', async (_name, ip, match) => {
    expect(await get(`/acl?name=blocklist&ip=${encodeURIComponent(ip)}`)).toEqual({ status: 200, body: { match } });
  });
});

describe('edge rate limiter', () => {
  it('blocks an entry sending far over its rate, across requests, without blocking another entry', async () => {
    const seen: boolean[] = [];
    for (let i = 0; i < 15; i++) seen.push((await get('/rate?entry=flooder')).body.blocked as boolean);
    expect(seen[0]).toBe(false);
    const firstBlocked = seen.indexOf(true);
    expect(firstBlocked).toBeGreaterThan(0);
    // Once over the limit the entry sits in the penalty box, so it stays blocked.
    expect(seen.slice(firstBlocked).every(Boolean)).toBe(true);
    expect((await get('/rate?entry=bystander')).body.blocked).toBe(false);
  });
});

describe('live reload', () => {
  it('serves a changed store file on later requests without a restart', async () => {
    expect(await get('/config?store=file_settings&key=mode')).toEqual({ status: 200, body: { value: 'before' } });
    await host.writeFile('settings.json', JSON.stringify({ mode: 'after', limit: '10' }));
    // File-change notification is asynchronous, so the new value is awaited with a bound rather
    // than demanded from the very next request.
    await expect
      .poll(async () => (await get('/config?store=file_settings&key=mode')).body.value, {
        timeout: 5_000,
        interval: 50,
      })
      .toBe('after');
    expect(host.alive()).toBe(true);
  });

  it('sees a same-size rewrite by rename that keeps the old mtime (one tick of the file clock)', async () => {
    // What two quick saves of a setting look like on a file system with a coarse clock: the new
    // version has the old one's size and mtime, and only the inode (a rename) tells them apart.
    // Whole seconds, so the mtime set here is exactly the one read back.
    const file = path.join(host.dir, 'settings.json');
    const tick = 1_700_000_000;
    const reloads = (): number =>
      host.logs().filter((line) => line.includes('reloaded') && line.includes('settings.json')).length;
    const seen = reloads();
    await utimes(file, tick, tick);
    await expect.poll(reloads, { timeout: 5_000, interval: 50 }).toBeGreaterThan(seen);
    const text = JSON.stringify({ mode: 'later', limit: '10' });
    expect(Buffer.byteLength(text)).toBe((await stat(file)).size);
    const tmp = `${file}.tick`;
    await writeFile(tmp, text);
    await utimes(tmp, tick, tick);
    await rename(tmp, file);
    await expect
      .poll(async () => (await get('/config?store=file_settings&key=mode')).body.value, {
        timeout: 5_000,
        interval: 50,
      })
      .toBe('later');
  });

  it('serves a rotated secret from a changed secret store file', async () => {
    await host.writeFile('secrets.json', JSON.stringify({ signing_key: 'rotated-secret' }));
    await expect
      .poll(async () => (await get('/secret?store=json_secrets&key=signing_key')).body.value, {
        timeout: 5_000,
        interval: 50,
      })
      .toBe('rotated-secret');
  });

  it('serves a value changed inline in fastly.toml itself', async () => {
    const edited = structuredClone(manifest);
    edited.local_server.config_stores.inline_settings.contents.greeting = 'edited in place';
    await host.writeFile('fastly.toml', manifestText(edited));
    await expect
      .poll(async () => (await get('/config?store=inline_settings&key=greeting')).body.value, {
        timeout: 5_000,
        interval: 50,
      })
      .toBe('edited in place');
  });

  it('sees a store file rewritten the moment the host says it listens', async () => {
    // Polls used to be compared with the previous poll, so a write landing before the first poll
    // became the baseline and was never served. Several fresh hosts, each written to at once.
    for (let attempt = 0; attempt < 4; attempt++) {
      const fresh = await startHost({
        wasm: await buildWasm(hostFixture('stores.js')),
        manifest,
        files,
        env: { WR_TEST_SECRET: 'secret from the environment' },
      });
      try {
        await fresh.writeFile('settings.json', JSON.stringify({ mode: `rewritten ${attempt}`, limit: '10' }));
        const read = async () => {
          const response = await fetch(`${fresh.url}/config?store=file_settings&key=mode`);
          return ((await response.json()) as { value: unknown }).value;
        };
        await expect.poll(read, { timeout: 3_000, interval: 50 }).toBe(`rewritten ${attempt}`);
      } finally {
        await fresh.stop();
      }
    }
  });

  it('keeps the previous values when a store file is edited into invalid JSON, and reports it', async () => {
    await host.writeFile('settings.json', JSON.stringify({ mode: 'valid', limit: '10' }));
    await expect
      .poll(async () => (await get('/config?store=file_settings&key=mode')).body.value, {
        timeout: 5_000,
        interval: 50,
      })
      .toBe('valid');
    await host.writeFile('settings.json', '{ "mode": "half-writ');
    // The report names the setting that broke, as every settings error in the project does.
    const report = await host.waitForLog(/local_server\.config_stores\.file_settings/, 5_000, 'stderr');
    expect(report).toMatch(/JSON/);
    expect(await get('/config?store=file_settings&key=mode')).toEqual({ status: 200, body: { value: 'valid' } });
    expect(host.alive()).toBe(true);
  });
});
