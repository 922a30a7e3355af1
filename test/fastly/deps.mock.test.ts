// The Fastly adapter against one small fake per `fastly:*` module it uses: a store the service
// lacks, or a lookup the runtime refuses, must cost a diagnostic, never the request.
import { beforeEach, describe, expect, it, vi } from 'vitest';

const fake = vi.hoisted(() => ({
  configStores: new Map<string, Map<string, string>>(),
  secretStores: new Map<string, Map<string, string>>(),
  logged: [] as Array<[string, string]>,
  loggersMade: [] as string[],
  consoleOptions: [] as unknown[],
  env: new Map<string, string>(),
  counters: new Map<string, number>(),
  rateCounterFails: false,
  boxesOpened: [] as string[],
  boxed: [] as Array<[string, string, number]>,
}));

vi.mock('fastly:env', () => ({ env: (name: string) => fake.env.get(name) ?? '' }));

vi.mock('fastly:edge-rate-limiter', () => ({
  RateCounter: class {
    constructor(readonly name: string) {
      if (fake.rateCounterFails) throw new Error('edge rate limiting is not enabled on this service');
    }
    increment(entry: string, delta: number) {
      fake.counters.set(`${this.name}/${entry}`, (fake.counters.get(`${this.name}/${entry}`) ?? 0) + delta);
    }
    lookupCount(entry: string) {
      return fake.counters.get(`${this.name}/${entry}`) ?? 0;
    }
  },
  PenaltyBox: class {
    constructor(readonly name: string) {
      fake.boxesOpened.push(name);
    }
    add(entry: string, minutes: number) {
      fake.boxed.push([this.name, entry, minutes]);
    }
    has(entry: string) {
      return fake.boxed.some(([name, e]) => name === this.name && e === entry);
    }
  },
}));

vi.mock('fastly:config-store', () => ({
  ConfigStore: class {
    private readonly items: Map<string, string>;
    constructor(name: string) {
      const items = fake.configStores.get(name);
      if (!items) throw new TypeError(`No ConfigStore named '${name}' exists`);
      this.items = items;
    }
    get(key: string): string | null {
      if (key.length > 255) throw new TypeError('key too long');
      return this.items.get(key) ?? null;
    }
  },
}));

vi.mock('fastly:secret-store', () => ({
  SecretStore: class {
    private readonly items: Map<string, string>;
    constructor(name: string) {
      const items = fake.secretStores.get(name);
      if (!items) throw new TypeError(`No SecretStore named '${name}' exists`);
      this.items = items;
    }
    async get(key: string) {
      const value = this.items.get(key);
      return value === undefined ? null : { plaintext: () => value };
    }
  },
}));

vi.mock('fastly:logger', () => ({
  Logger: class {
    constructor(private readonly name: string) {
      if (name === 'missing') throw new TypeError('no such endpoint');
      fake.loggersMade.push(name);
    }
    log(line: string) {
      fake.logged.push([this.name, line]);
    }
  },
  configureConsole: (options: unknown) => fake.consoleOptions.push(options),
}));

// Routing rules' lookups (edge-lookups.ts, tested in test/fastly/edge-lookups.mock.test.ts): a service without them.
vi.mock('fastly:acl', () => ({
  Acl: {
    open: (name: string) => {
      throw new TypeError(`no ACL named '${name}'`);
    },
  },
}));
vi.mock('fastly:device', () => ({ Device: { lookup: () => null } }));
vi.mock('fastly:geolocation', () => ({ getGeolocationForIpAddress: () => null }));

const { fastlyStores } = await import('../../src/fastly/stores.js');
const { fastlyDeps } = await import('../../src/fastly/deps.js');

beforeEach(() => {
  fake.configStores.clear();
  fake.secretStores.clear();
  fake.logged.length = 0;
});

describe('fastly stores', () => {
  it('reads the three stores by their documented names', async () => {
    fake.configStores.set('waiting_room_config', new Map([['allow_percentage', '20']]));
    fake.configStores.set('waiting_room_pages', new Map([['deny', 'PGgxPg==']]));
    fake.secretStores.set('waiting_room_keys', new Map([['key1', 'c2VjcmV0']]));
    const stores = fastlyStores(() => {});
    expect(stores.setting('allow_percentage')).toBe('20');
    expect(stores.setting('enabled')).toBeNull();
    expect(stores.page('deny')).toBe('PGgxPg==');
    expect(await stores.key('key1')).toBe('c2VjcmV0');
    expect(await stores.key('key2')).toBeNull();
  });

  it('treats a missing store as empty and says so once per request', async () => {
    const diags: string[] = [];
    const stores = fastlyStores((m) => diags.push(m));
    expect(stores.setting('allow_percentage')).toBeNull();
    expect(stores.setting('enabled')).toBeNull();
    expect(await stores.key('key1')).toBeNull();
    expect(stores.page('startwaiting')).toBeNull();
    expect(diags).toHaveLength(3);
    expect(diags.join('\n')).toMatch(/waiting_room_config[\s\S]*waiting_room_keys[\s\S]*waiting_room_pages/);
  });

  it('turns a refused lookup into "absent"', () => {
    fake.configStores.set('waiting_room_config', new Map());
    const diags: string[] = [];
    expect(fastlyStores((m) => diags.push(m)).setting('x'.repeat(300))).toBeNull();
    expect(diags[0]).toMatch(/too long/);
  });
});

describe('fastly deps', () => {
  const event = {
    client: { address: '2001:db8::1' },
    request: new Request('https://shop.example/'),
  } as unknown as FetchEvent;

  it('hands the client address, a clock, and diagnostics on stderr', () => {
    const deps = fastlyDeps(event);
    expect(deps.clientIp).toBe('2001:db8::1');
    expect(Math.abs(deps.now() - Date.now())).toBeLessThan(60_000);
    expect(fake.consoleOptions).toEqual([{ stderr: true }]);
    fastlyDeps(event);
    expect(fake.consoleOptions).toHaveLength(1);
  });

  it("hands the edge lookups routing rules use, which answer 'missing' for an ACL the service lacks", async () => {
    const edge = fastlyDeps(event).edge!;
    expect(await edge.acl('staff', '2001:db8::1')).toBe('missing');
    expect(edge.geo('2001:db8::1')).toBeNull();
  });

  it('keeps one Logger per endpoint, and reports an unknown endpoint once', () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const deps = fastlyDeps(event);
    deps.log('room_log', 'a');
    deps.log('room_log', 'b');
    deps.log('missing', 'c');
    deps.log('missing', 'd');
    expect(fake.logged).toEqual([
      ['room_log', 'a'],
      ['room_log', 'b'],
    ]);
    expect(fake.loggersMade.filter((n) => n === 'room_log')).toHaveLength(1);
    expect(errors.mock.calls.filter(([m]) => String(m).includes('"missing"'))).toHaveLength(1);
    errors.mockRestore();
  });
});

describe('fastly deps for the controller and the ceiling', () => {
  const event = {
    client: { address: '192.0.2.7' },
    request: new Request('https://shop.example/'),
  } as unknown as FetchEvent;

  it('names the POP from FASTLY_POP, and none when the runtime has none', () => {
    fake.env.set('FASTLY_POP', 'LHR');
    expect(fastlyDeps(event).pop).toBe('LHR');
    fake.env.delete('FASTLY_POP');
    expect(fastlyDeps(event).pop).toBeNull();
  });

  it('prints decision lines on stdout for log_endpoint = stdout, where fastly log-tail shows them', () => {
    const out = vi.spyOn(console, 'log').mockImplementation(() => {});
    fastlyDeps(event).log('stdout', '{"wr":1}');
    expect(out).toHaveBeenCalledWith('{"wr":1}');
    expect(fake.logged).toEqual([]);
    out.mockRestore();
  });

  it('counts admissions in the rate counter named for the room', () => {
    const counter = fastlyDeps(event).rateCounter!;
    counter.increment('admitted', 2);
    expect(counter.count('admitted', 10)).toBe(2);
    expect(fake.counters.get('waiting_room_admissions/admitted')).toBe(2);
  });

  it('boxes hammering tokens in the penalty box named for it, opened only when a room asks (the product is paid)', () => {
    const deps = fastlyDeps(event);
    expect(fake.boxesOpened).toEqual([]);
    const box = deps.penaltyBox!;
    box.add('c2lnbmF0dXJl', 1);
    expect(box.has('c2lnbmF0dXJl')).toBe(true);
    expect(fake.boxed).toEqual([['waiting_room_hammering', 'c2lnbmF0dXJl', 1]]);
    expect(fastlyDeps(event).penaltyBox).toBe(box);
    expect(fake.boxesOpened).toEqual(['waiting_room_hammering']);
  });

  it('says nothing itself when the service has no edge rate limiter: what needed the counter says it, once', async () => {
    vi.resetModules();
    const fresh = await import('../../src/fastly/deps.js');
    fake.rateCounterFails = true;
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      expect(fresh.fastlyDeps(event).rateCounter).toBeNull();
      expect(errors).not.toHaveBeenCalled();
    } finally {
      fake.rateCounterFails = false;
      errors.mockRestore();
    }
  });
});
