// Secret Stores as Fastly's API keeps them, with the client-side encryption the Fastly CLI uses: the
// CLI asks for a client key (an X25519 public key signed by the API's Ed25519 signing key), checks
// the signature, seals the secret to that key and sends the sealed bytes. The stand-in signs with a
// key of its own, so the CLI must be told to trust the API's signing key (FASTLY_USE_API_SIGNING_KEY,
// lib/fastly-env.ts). It opens each sealed secret with the client key's private half (sealed-box.ts),
// as Fastly does, so a test can check what the CLI sent; the API itself never gives a value back.
import { createHash, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { openSealed } from './sealed-box.js';
import { apiError, apiTime, newId, type Answer } from './config-store.js';

/** The largest secret Fastly takes, bytes. */
export const MAX_SECRET_BYTES = 64 * 1024;

interface Secret {
  /** The secret's bytes, opened. */
  value: Buffer;
  /** Whether it came sealed to a client key (the CLI always seals). */
  sealed: boolean;
  digest: string;
  created: string;
}

export interface SecretStore {
  id: string;
  name: string;
  created: string;
  secrets: Map<string, Secret>;
}

const rawPublic = (key: KeyObject): Buffer => Buffer.from(key.export({ format: 'jwk' }).x as string, 'base64url');

export class SecretStores {
  readonly byId = new Map<string, SecretStore>();
  private readonly signing = generateKeyPairSync('ed25519');
  /** The client keys handed out: public key (base64) -> its private half. */
  private readonly clientKeys = new Map<string, KeyObject>();

  constructor(private readonly now: () => number) {}

  create(name: string, id: string = newId()): SecretStore {
    if (this.byId.has(id)) throw new Error(`a Secret Store with id ${id} exists already`);
    const store: SecretStore = { id, name, created: apiTime(this.now()), secrets: new Map() };
    this.byId.set(id, store);
    return store;
  }

  /** The names a store holds, for tests: name -> {bytes, sealed}. */
  names(id: string): Record<string, { bytes: number; sealed: boolean }> {
    const s = this.byId.get(id);
    if (s === undefined) throw new Error(`no Secret Store ${id}`);
    return Object.fromEntries([...s.secrets].map(([n, v]) => [n, { bytes: v.value.length, sealed: v.sealed }]));
  }

  /** A secret's value, for tests (the API never gives one back). */
  value(id: string, name: string): Buffer {
    const v = this.byId.get(id)?.secrets.get(name);
    if (v === undefined) throw new Error(`no secret ${name} in Secret Store ${id}`);
    return v.value;
  }

  private storeJson(s: SecretStore): Record<string, unknown> {
    return { id: s.id, name: s.name, created_at: s.created };
  }

  private secretJson(name: string, v: Secret, recreated = false): Record<string, unknown> {
    return { name, digest: v.digest, created_at: v.created, ...(recreated ? { recreated: true } : {}) };
  }

  // ---- keys ----

  signingKey(): Answer {
    return { status: 200, body: { signing_key: rawPublic(this.signing.publicKey).toString('base64') } };
  }

  clientKey(): Answer {
    const pair = generateKeyPairSync('x25519');
    const pub = rawPublic(pair.publicKey);
    this.clientKeys.set(pub.toString('base64'), pair.privateKey);
    const signature = sign(null, pub, this.signing.privateKey);
    return {
      status: 200,
      body: {
        public_key: pub.toString('base64'),
        signature: signature.toString('base64'),
        expires_at: new Date(this.now() + 600_000).toISOString(),
      },
    };
  }

  // ---- stores ----

  list(query: URLSearchParams): Answer {
    return {
      status: 200,
      body: page(
        [...this.byId.values()].map((s) => this.storeJson(s)),
        query,
        (s) => String(s.id),
      ),
    };
  }

  describe(id: string): Answer {
    const s = this.byId.get(id);
    return s === undefined ? apiError(404, 'Record not found') : { status: 200, body: this.storeJson(s) };
  }

  createStore(body: unknown): Answer {
    const name = (body as { name?: unknown } | null)?.name;
    if (typeof name !== 'string' || name === '') return apiError(400, 'Bad request', 'name is required');
    return { status: 200, body: this.storeJson(this.create(name)) };
  }

  // ---- secrets ----

  listSecrets(id: string, query: URLSearchParams): Answer {
    const s = this.byId.get(id);
    if (s === undefined) return apiError(404, 'Record not found');
    const all = [...s.secrets].sort(([a], [b]) => (a < b ? -1 : 1)).map(([n, v]) => this.secretJson(n, v));
    return { status: 200, body: page(all, query, (x) => String(x.name)) };
  }

  getSecret(id: string, name: string): Answer {
    const v = this.byId.get(id)?.secrets.get(name);
    return v === undefined ? apiError(404, 'Record not found') : { status: 200, body: this.secretJson(name, v) };
  }

  /** POST creates (409 if the name exists), PUT creates or recreates, PATCH recreates (404 if missing). */
  putSecret(id: string, method: string, body: unknown): Answer {
    const s = this.byId.get(id);
    if (s === undefined) return apiError(404, 'Record not found');
    const b = (body ?? {}) as { name?: unknown; secret?: unknown; client_key?: unknown };
    if (typeof b.name !== 'string' || b.name === '') return apiError(400, 'Bad request', 'name is required');
    if (typeof b.secret !== 'string' || b.secret === '')
      return apiError(400, 'Bad request', 'secret is required (base64)');
    let value: Buffer = Buffer.from(b.secret, 'base64');
    const sealed = typeof b.client_key === 'string';
    if (sealed) {
      const key = this.clientKeys.get(b.client_key as string);
      const opened = key === undefined ? null : openSealed(value, key, Buffer.from(b.client_key as string, 'base64'));
      if (opened === null)
        return apiError(
          400,
          'Bad request',
          'the secret does not open with client_key (a client key this API did not hand out?)',
        );
      value = opened;
    }
    if (value.length > MAX_SECRET_BYTES)
      return apiError(400, 'Bad request', `secret is over ${MAX_SECRET_BYTES} bytes`);
    const exists = s.secrets.has(b.name);
    if (method === 'POST' && exists) return apiError(409, 'Duplicate record', `secret ${b.name} exists already`);
    if (method === 'PATCH' && !exists) return apiError(404, 'Record not found', `no secret ${b.name}`);
    const v: Secret = {
      value,
      sealed,
      digest: createHash('sha256').update(value).digest('base64'),
      created: apiTime(this.now()),
    };
    s.secrets.set(b.name, v);
    return { status: 200, body: this.secretJson(b.name, v, exists) };
  }

  deleteSecret(id: string, name: string): Answer {
    const s = this.byId.get(id);
    if (s === undefined || !s.secrets.delete(name)) return apiError(404, 'Record not found');
    return { status: 204, body: null };
  }
}

/** Fastly's cursor pagination: `{data, meta: {limit, next_cursor}}`, the cursor being the last key given. */
function page<T>(
  all: T[],
  query: URLSearchParams,
  keyOf: (x: T) => string,
): { data: T[]; meta: { limit: number; next_cursor?: string } } {
  const limit = Math.min(200, Math.max(1, Number(query.get('limit') ?? 100) || 100));
  const cursor = query.get('cursor');
  const from = cursor === null ? 0 : all.findIndex((x) => keyOf(x) > cursor);
  const data = from === -1 ? [] : all.slice(from, from + limit);
  const more = from !== -1 && from + limit < all.length;
  return { data, meta: { limit, ...(more ? { next_cursor: keyOf(data[data.length - 1]!) } : {}) } };
}
