// Services and versions in the stand-in, over HTTP as the Fastly CLI reaches them: a new service's
// editable version 1, what a locked version refuses, clone and activate, resource links to stores
// that exist, and the products `[setup.products]` enables.
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { startFastlyApi, type FastlyApi } from '../../fastly-api/server.js';

let api: FastlyApi | null = null;
afterEach(async () => {
  await api?.stop();
  api = null;
});
const call = async (method: string, path: string, form?: Record<string, string>) => {
  const r = await fetch(`${api!.url}${path}`, {
    method,
    headers: { 'Fastly-Key': 'tok' },
    ...(form === undefined ? {} : { body: new URLSearchParams(form) }),
  });
  const text = await r.text();
  return { status: r.status, body: text === '' ? null : (JSON.parse(text) as Record<string, unknown>) };
};

/** A package the stand-in takes: a tar.gz holding fastly.toml and a Wasm module. */
function packageBytes(): Buffer {
  const entry = (name: string, data: Buffer): Buffer[] => {
    const h = Buffer.alloc(512);
    h.write(name, 0);
    h.write(`${data.length.toString(8).padStart(11, '0')}\0`, 124);
    h.write('0', 156);
    return [h, data, Buffer.alloc((512 - (data.length % 512)) % 512)];
  };
  const tar = Buffer.concat([
    ...entry('room/fastly.toml', Buffer.from('name = "room"\n')),
    ...entry('room/bin/main.wasm', Buffer.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0])),
    Buffer.alloc(1024),
  ]);
  return gzipSync(tar);
}

async function upload(path: string): Promise<number> {
  const form = new FormData();
  form.set('package', new Blob([new Uint8Array(packageBytes())]), 'room.tar.gz');
  const r = await fetch(`${api!.url}${path}`, { method: 'PUT', headers: { 'Fastly-Key': 'tok' }, body: form });
  return r.status;
}

describe('services in the stand-in', () => {
  it('takes a new service through domain, backend, link, package and activation, then locks the version', async () => {
    api = await startFastlyApi();
    const made = await call('POST', '/service', { name: 'room', type: 'wasm' });
    expect(made.status).toBe(200);
    const id = made.body!.id as string;
    const v1 = `/service/${id}/version/1`;
    expect((await call('PUT', `${v1}/activate`)).body).toMatchObject({ detail: expect.stringMatching(/no package/) });
    expect((await call('POST', `${v1}/domain`, { name: 'shop.example.com' })).status).toBe(200);
    expect((await call('POST', `${v1}/domain`, { name: 'not a domain' })).status).toBe(400);
    expect(
      (await call('POST', `${v1}/backend`, { name: 'origin', address: 'shop.example.com', port: '443' })).body,
    ).toMatchObject({
      name: 'origin',
      port: 443,
    });
    const store = api.config.create('waiting_room_config');
    expect((await call('POST', `${v1}/resource`, { resource_id: 'nope' })).status).toBe(400);
    expect((await call('POST', `${v1}/resource`, { resource_id: store.id })).body).toMatchObject({
      name: 'waiting_room_config',
      resource_type: 'config',
    });
    expect(await upload(`${v1}/package`)).toBe(200);
    expect((await call('PUT', `${v1}/activate`)).body).toMatchObject({ active: true, locked: true });
    // an active version no longer changes; a clone does, and activating it retires the first
    expect((await call('POST', `${v1}/domain`, { name: 'b.example.com' })).body).toMatchObject({
      detail: expect.stringMatching(/locked: clone it/),
    });
    // a version is named by its number in a path: `active` would skip the lock
    expect(
      (await call('POST', `/service/${id}/version/active/backend`, { name: 'b', address: 'b.example.com' })).status,
    ).toBe(400);
    expect((await call('PUT', `${v1}/clone`)).body).toMatchObject({ number: 2, active: false, locked: false });
    expect((await call('GET', `/service/${id}/version/2/resource`)).body).toEqual([
      expect.objectContaining({ name: 'waiting_room_config', resource_id: store.id }),
    ]);
    expect((await call('PUT', `/service/${id}/version/2/activate`)).status).toBe(200);
    const versions = (await call('GET', `/service/${id}/version`)).body as unknown as Array<Record<string, unknown>>;
    expect(versions.map((v) => [v.number, v.active])).toEqual([
      [1, false],
      [2, true],
    ]);
    expect((await call('DELETE', `/service/${id}`)).status).toBe(400);
  });

  it('refuses a second service of the same name and enables a product on a service', async () => {
    api = await startFastlyApi();
    const id = (await call('POST', '/service', { name: 'room' })).body!.id as string;
    expect((await call('POST', '/service', { name: 'room' })).status).toBe(409);
    const product = `/enabled-products/v1/bot_management/services/${id}`;
    expect((await call('GET', product)).status).toBe(400);
    expect((await call('PUT', product)).body).toMatchObject({ product: { id: 'bot_management' } });
    expect((await call('GET', product)).status).toBe(200);
    expect(api.services.byId.get(id)?.products.has('bot_management')).toBe(true);
  });
});
