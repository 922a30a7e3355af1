// Requests as routing rules see them (src/core/request/request-facts.ts), with fake edge lookups.
import { requestFacts, type RequestFacts } from '../../src/core/request/request-facts.js';
import type { DeviceClass, EdgeLookups } from '../../src/core/types.js';

export interface FakeEdge {
  geo?: Record<string, { country: string | null; continent: string | null; asn: number | null }>;
  devices?: Record<string, DeviceClass>;
  bot?: { verified: boolean; category: string | null } | null;
  acls?: Record<string, Record<string, 'allow' | 'block'>>;
}

/** Fake lookups that count their calls. */
export function fakeEdge(e: FakeEdge = {}): EdgeLookups & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    geo(ip) {
      calls.push(`geo ${ip}`);
      return e.geo?.[ip] ?? null;
    },
    device(ua) {
      calls.push(`device ${ua}`);
      return e.devices?.[ua] ?? null;
    },
    bot() {
      calls.push('bot');
      return e.bot === undefined ? null : e.bot;
    },
    async acl(name, ip) {
      calls.push(`acl ${name} ${ip}`);
      const acl = e.acls?.[name];
      if (!acl) return 'missing';
      return acl[ip] ?? 'none';
    },
  };
}

export interface FactsInit {
  method?: string;
  headers?: Record<string, string>;
  ip?: string | null;
  edge?: EdgeLookups | null;
  notes?: string[];
}

export function facts(url: string, init: FactsInit = {}): RequestFacts {
  const u = new URL(url.startsWith('http') ? url : `https://shop.example.com${url}`);
  const request = new Request(u, { method: init.method ?? 'GET', headers: init.headers ?? {} });
  const notes = init.notes ?? [];
  return requestFacts(
    request,
    u,
    request.headers.get('cookie'),
    init.ip === undefined ? '192.0.2.1' : init.ip,
    init.edge ?? null,
    (m) => notes.push(m),
  );
}
