import { createPublicKey, verify } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { seal } from '../../fastly-api/sealed-box.js';
import { SecretStores } from '../../fastly-api/secret-store.js';

const now = () => Date.UTC(2026, 10, 26, 10);
const ed25519Key = (raw: string) =>
  createPublicKey({
    key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(raw, 'base64').toString('base64url') },
    format: 'jwk',
  });

describe('a Secret Store in the stand-in', () => {
  it('hands out client keys signed by its signing key, as the CLI checks them', () => {
    const stores = new SecretStores(now);
    const signing = (stores.signingKey().body as { signing_key: string }).signing_key;
    const ck = stores.clientKey().body as { public_key: string; signature: string };
    expect(Buffer.from(ck.public_key, 'base64')).toHaveLength(32);
    expect(
      verify(null, Buffer.from(ck.public_key, 'base64'), ed25519Key(signing), Buffer.from(ck.signature, 'base64')),
    ).toBe(true);
  });

  it('creates (POST), recreates (PUT, PATCH), lists by page and deletes secrets', () => {
    const stores = new SecretStores(now);
    const id = stores.create('waiting_room_keys').id;
    const secret = Buffer.from('key bytes').toString('base64');
    expect(stores.putSecret(id, 'POST', { name: 'key1', secret }).status).toBe(200);
    expect(stores.putSecret(id, 'POST', { name: 'key1', secret }).status).toBe(409);
    expect(stores.putSecret(id, 'PUT', { name: 'key1', secret }).body).toMatchObject({ name: 'key1', recreated: true });
    expect(stores.putSecret(id, 'PATCH', { name: 'key9', secret }).status).toBe(404);
    for (const n of ['key2', 'key3']) stores.putSecret(id, 'PUT', { name: n, secret });
    const first = stores.listSecrets(id, new URLSearchParams('limit=2')).body as {
      data: { name: string }[];
      meta: { next_cursor?: string };
    };
    expect(first.data.map((s) => s.name)).toEqual(['key1', 'key2']);
    const rest = stores.listSecrets(id, new URLSearchParams(`limit=2&cursor=${first.meta.next_cursor}`)).body as {
      data: { name: string }[];
      meta: { next_cursor?: string };
    };
    expect([rest.data.map((s) => s.name), rest.meta.next_cursor]).toEqual([['key3'], undefined]);
    expect(stores.deleteSecret(id, 'key2').status).toBe(204);
    expect(stores.deleteSecret(id, 'key2').status).toBe(404);
    expect(Object.keys(stores.names(id))).toEqual(['key1', 'key3']);
  });

  it('opens a secret sealed to a client key it handed out, and refuses one sealed to another key', () => {
    const stores = new SecretStores(now);
    const id = stores.create('waiting_room_keys').id;
    const ck = (stores.clientKey().body as { public_key: string }).public_key;
    const sealed = seal(Buffer.from('sixty-four bytes, say'), Buffer.from(ck, 'base64')).toString('base64');
    expect(stores.putSecret(id, 'POST', { name: 'key1', secret: sealed, client_key: ck }).status).toBe(200);
    expect(stores.value(id, 'key1').toString()).toBe('sixty-four bytes, say');
    expect(stores.names(id)).toEqual({ key1: { bytes: 21, sealed: true } });
    const stranger = Buffer.alloc(32, 7).toString('base64');
    const refused = stores.putSecret(id, 'POST', { name: 'key2', secret: sealed, client_key: stranger });
    expect(refused).toEqual({
      status: 400,
      body: {
        msg: 'Bad request',
        detail: 'the secret does not open with client_key (a client key this API did not hand out?)',
      },
    });
  });
});
