// The routing rules' lookups against one small fake per `fastly:*` module: what the service lacks
// answers null or 'missing', never throws.
import { describe, expect, it, vi } from 'vitest';

const fake = vi.hoisted(() => ({
  acls: new Map<string, Map<string, 'ALLOW' | 'BLOCK'>>(),
  opened: [] as string[],
  lookupFails: false,
}));

vi.mock('fastly:acl', () => ({
  Acl: {
    open(name: string) {
      fake.opened.push(name);
      const entries = fake.acls.get(name);
      if (!entries) throw new TypeError(`no ACL named '${name}'`);
      return {
        async lookup(ip: string) {
          if (fake.lookupFails) throw new Error('lookup failed');
          const action = entries.get(ip);
          return action === undefined ? null : { action, prefix: `${ip}/32` };
        },
      };
    },
  },
}));

const device = (flags: Record<string, boolean>) => ({
  isBot: false,
  isTablet: false,
  isMobile: false,
  isSmartTV: false,
  isGameConsole: false,
  isMediaPlayer: false,
  isDesktop: false,
  ...flags,
});
vi.mock('fastly:device', () => ({
  Device: {
    lookup(ua: string) {
      if (ua === '') throw new TypeError('empty user agent');
      if (ua === 'ipad') return device({ isTablet: true, isMobile: true });
      if (ua === 'crawler') return device({ isBot: true, isDesktop: true });
      if (ua === 'firefox') return device({ isDesktop: true });
      if (ua === 'odd') return device({});
      return null;
    },
  },
}));

vi.mock('fastly:geolocation', () => ({
  getGeolocationForIpAddress(ip: string) {
    if (ip === 'bad') throw new Error('not an IP address');
    if (ip === '192.0.2.1') return { country_code: 'FR', continent: 'EU', as_number: 64496 };
    return null;
  },
}));

const { fastlyEdgeLookups } = await import('../../src/fastly/edge-lookups.js');

function eventWith(bot: Record<string, unknown> = {}): FetchEvent {
  return {
    client: { address: '192.0.2.1' },
    request: Object.assign(new Request('https://shop.example/'), bot),
  } as unknown as FetchEvent;
}

describe('fastlyEdgeLookups', () => {
  it('geolocation: country, continent and AS number; null without data or for a bad address', () => {
    const edge = fastlyEdgeLookups(eventWith());
    expect(edge.geo('192.0.2.1')).toEqual({ country: 'FR', continent: 'EU', asn: 64496 });
    expect(edge.geo('198.51.100.1')).toBeNull();
    expect(edge.geo('bad')).toBeNull();
  });

  it('device: one class, the most particular; null when unknown', () => {
    const edge = fastlyEdgeLookups(eventWith());
    expect(edge.device('ipad')).toBe('tablet');
    expect(edge.device('crawler')).toBe('bot');
    expect(edge.device('firefox')).toBe('desktop');
    expect(edge.device('odd')).toBeNull();
    expect(edge.device('unknown')).toBeNull();
    expect(edge.device('')).toBeNull();
  });

  it("bots: the request's verdict where Bot Management ran, null where it did not", () => {
    expect(
      fastlyEdgeLookups(
        eventWith({ botAnalyzed: true, botVerified: true, botCategory: 'search-engine-crawler' }),
      ).bot(),
    ).toEqual({
      verified: true,
      category: 'search-engine-crawler',
    });
    expect(fastlyEdgeLookups(eventWith({ botAnalyzed: true, botVerified: false, botCategory: 'none' })).bot()).toEqual({
      verified: false,
      category: null,
    });
    expect(fastlyEdgeLookups(eventWith({ botAnalyzed: false, botVerified: null, botCategory: null })).bot()).toBeNull();
    expect(fastlyEdgeLookups(eventWith()).bot()).toBeNull();
  });

  it("ACLs: the entry's action, 'none' without one, 'missing' when the service has no such ACL or the lookup fails", async () => {
    fake.acls.set(
      'staff',
      new Map([
        ['192.0.2.1', 'ALLOW'],
        ['192.0.2.2', 'BLOCK'],
      ]),
    );
    const edge = fastlyEdgeLookups(eventWith());
    expect(await edge.acl('staff', '192.0.2.1')).toBe('allow');
    expect(await edge.acl('staff', '192.0.2.2')).toBe('block');
    expect(await edge.acl('staff', '192.0.2.3')).toBe('none');
    expect(await edge.acl('nope', '192.0.2.1')).toBe('missing');
    expect(await edge.acl('nope', '192.0.2.1')).toBe('missing');
    expect(fake.opened.filter((n) => n === 'nope')).toHaveLength(1);
    fake.lookupFails = true;
    expect(await edge.acl('staff', '192.0.2.1')).toBe('missing');
  });
});
