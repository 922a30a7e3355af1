// The stores as the room reads them on Fastly, over a fake of the two `fastly:*` store modules in
// which only the stores listed in `present` exist: what a missing store or a refused read costs.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { SandboxMemory } from '../../src/core/memory/index.js';

const present = vi.hoisted(() => new Map<string, Map<string, string>>());

vi.mock('fastly:config-store', () => ({
  ConfigStore: class {
    constructor(readonly name: string) {
      if (!present.has(name)) throw new TypeError(`No ConfigStore named '${name}' exists`);
    }
    get(key: string): string | null {
      if (key.length > 255) throw new TypeError('key too long');
      return present.get(this.name)!.get(key) ?? null;
    }
  },
}));

vi.mock('fastly:secret-store', () => ({
  SecretStore: class {
    constructor(readonly name: string) {
      if (!present.has(name)) throw new TypeError(`No SecretStore named '${name}' exists`);
    }
    async get(key: string) {
      const value = present.get(this.name)!.get(key);
      return value === undefined ? null : { plaintext: () => value };
    }
  },
}));

const { fastlyStores } = await import('../../src/fastly/stores.js');

beforeEach(() => {
  present.clear();
  present.set('waiting_room_config', new Map([['allow_percentage', '20']]));
  present.set('waiting_room_keys', new Map([['key1', 'c2VjcmV0']]));
});

describe('a store the service lacks', () => {
  it('reads as empty, and is reported once per sandbox however many requests it serves', () => {
    const memory = new SandboxMemory();
    const diags: string[] = [];
    for (let request = 0; request < 3; request++) {
      const stores = fastlyStores((m) => diags.push(m), memory);
      expect(stores.page('startwaiting')).toBeNull();
      expect(stores.page('keepwaiting')).toBeNull();
      expect(stores.setting('allow_percentage')).toBe('20');
    }
    expect(diags).toEqual([
      expect.stringMatching(/^store "waiting_room_pages" could not be opened .*; treating it as empty$/),
    ]);
  });

  it('is reported again by another sandbox, and on every request without one', () => {
    const diags: string[] = [];
    fastlyStores((m) => diags.push(m), new SandboxMemory()).page('deny');
    fastlyStores((m) => diags.push(m), new SandboxMemory()).page('deny');
    fastlyStores((m) => diags.push(m)).page('deny');
    expect(diags).toHaveLength(3);
  });
});

describe('a read the store refuses', () => {
  it('reads as absent and says so each time, naming the store and the key', async () => {
    const diags: string[] = [];
    const stores = fastlyStores((m) => diags.push(m), new SandboxMemory());
    expect(stores.setting('x'.repeat(300))).toBeNull();
    expect(stores.setting('x'.repeat(300))).toBeNull();
    expect(await stores.key('key1')).toBe('c2VjcmV0');
    expect(diags).toEqual([
      expect.stringMatching(
        /^store "waiting_room_config": reading "x{64}" failed \(TypeError: key too long\); treating it as absent$/,
      ),
      expect.stringMatching(/^store "waiting_room_config": reading "x{64}" failed/),
    ]);
  });
});
