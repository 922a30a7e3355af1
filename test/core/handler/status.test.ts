// The status link of the chain (src/core/handler/status.ts) through the handler, on fakes: what it reads
// of the store (two lookups at most), what it answers when the store has no basis, fails, or the query
// is wrong, and that no routing rule, origin or log line is ever involved.
import { describe, expect, it } from 'vitest';
import { statusBasisWrites } from '../../../lib/status-basis.js';
import { SandboxMemory } from '../../../src/core/memory/index.js';
import { storeFromSettings } from '../../../src/core/settings/index.js';
import { FakeRoom, KEY_BASE64, KID, T0 } from '../../support/fakes.js';
import { setupItems } from '../../support/setup-items.js';

const ROUTING = JSON.stringify({
  rooms: [{ id: 'shop', routes: ['/'] }],
  rules: [{ id: 'all', if: { path: { prefix: '/' } }, then: 'bypass' }],
});

/** A room whose store holds `settings` service-wide, the routing, and each room's basis as tune writes it. */
function described(settings: Record<string, string>, extra: Record<string, string> = {}, memory?: SandboxMemory) {
  const base = {
    ...storeFromSettings({ active_key: KID, log_endpoint: 'log', ...settings }),
    routing: ROUTING,
    ...extra,
  };
  const store = { ...base, ...statusBasisWrites(base, T0 / 1000 - 30) };
  return new FakeRoom({ settings, store, ...(memory ? { memory } : {}) });
}

async function status(room: FakeRoom, query = '?room=shop', method = 'GET') {
  const before = room.lookups;
  const answer = await room.visit({ path: `/__waiting_room/status${query}`, method });
  return { ...answer, lookups: room.lookups - before, json: answer.body === '' ? null : JSON.parse(answer.body) };
}

describe('the status through the handler', () => {
  it('reads two values, the room live value and its allow_percentage, and answers before any rule', async () => {
    const room = described({ allow_percentage: '30' });
    const s = await status(room);
    expect(s.lookups).toBe(2);
    expect(s.fromOrigin).toBe(false);
    expect(s.log).toBeUndefined();
    expect(s.json).toMatchObject({ room: 'shop', state: 'queueing', chancePercentage: 30 });
    expect(s.json.updated).toBe(new Date(T0 - 30_000).toISOString().replace('.000Z', 'Z'));
    expect(s.response.headers.get('cache-control')).toBe('public, max-age=5');
  });

  it('sees a hand-written allow_percentage at once, the basis notwithstanding', async () => {
    const room = described({ allow_percentage: '30' });
    room.store.set('room.shop.allow_percentage', '0');
    expect((await status(room)).json).toMatchObject({ state: 'closed', reason: 'deny_all' });
  });

  it('without a basis: unknown for a room the routing names, 404 for any other, in two lookups', async () => {
    const room = new FakeRoom({ store: { routing: ROUTING } });
    const named = await status(room);
    expect(named.json).toMatchObject({ state: 'unknown', reason: 'no_status_basis', updated: null });
    const other = await status(room, '?room=nosuch');
    expect(other.response.status).toBe(404);
    expect(other.json).toEqual({ error: 'unknown_room', message: 'no room nosuch' });
    expect(Math.max(named.lookups, other.lookups)).toBe(2);
  });

  it('a service as publish sets it up (fastly.toml): open, updated null, and its visitors pass with no schedule in the live value', async () => {
    const room = new FakeRoom({ store: setupItems(), keys: { key1: KEY_BASE64 } });
    const s = await status(room, '?room=main');
    expect(s.lookups).toBe(2);
    expect(s.json).toMatchObject({ state: 'open', reason: 'allow_all', waitTime50PercentileSeconds: 0, updated: null });
    const visit = await room.visit({ path: '/' });
    expect(visit.fromOrigin).toBe(true);
    expect(room.diags).toEqual([]);
  });

  it("without a routing, the one room is default's", async () => {
    const room = new FakeRoom();
    expect((await status(room, '?room=default')).json.state).toBe('unknown');
    expect((await status(room, '?room=shop')).response.status).toBe(404);
  });

  it('a store that fails: 503 with the reason, said to the operator', async () => {
    const room = new FakeRoom({ brokenStores: ['config'] });
    const s = await status(room);
    expect(s.response.status).toBe(503);
    expect(s.response.headers.get('cache-control')).toBe('no-store');
    expect(s.json).toMatchObject({ error: 'store_unavailable', message: 'store config does not exist' });
    expect(s.diags.some((d) => d.startsWith('status: store config does not exist'))).toBe(true);
  });

  it('a malformed query: 400 and no lookup; a method other than GET, HEAD or OPTIONS: 405', async () => {
    const room = described({ allow_percentage: '30' });
    const bad = await status(room, '?room=../etc');
    expect(bad.response.status).toBe(400);
    expect(bad.lookups).toBe(0);
    expect((await status(room, '?room=shop', 'DELETE')).response.status).toBe(405);
    expect((await status(room, '?room=shop', 'OPTIONS')).response.status).toBe(204);
    expect((await status(room, '?room=shop', 'HEAD')).body).toBe('');
  });

  it('answers the same in a reused sandbox, which keeps the parse of the two values', async () => {
    const memory = new SandboxMemory();
    const room = described({ allow_percentage: '30' }, {}, memory);
    const first = await status(room);
    room.advance(2);
    const second = await status(room);
    expect(second.json).toEqual(first.json);
    expect(second.lookups).toBe(2);
  });
});
