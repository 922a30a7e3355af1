// The rooms' status bases (lib/status-basis.ts): what tune and the controller write, and when.
import { describe, expect, it } from 'vitest';
import { applyWrites } from '../../lib/json-store.js';
import { basisSettings, statusBasisWrites, storedBasis } from '../../lib/status-basis.js';
import { storeFromSettings } from '../../src/core/settings/index.js';

const ROUTING = JSON.stringify({
  rooms: [
    { id: 'shop', routes: ['/'] },
    { id: 'sale', routes: ['/sale'] },
  ],
});
const store = {
  ...storeFromSettings({ allow_percentage: '40', wait_period_duration: '20', log_endpoint: 'x', identity: 'ip' }),
  routing: ROUTING,
  'room.sale': JSON.stringify({ event_start: '2026-12-01T10:00:00Z', wait_period_duration: 'soon' }),
  'room.sale.allow_percentage': '5',
  'room.sale.live': JSON.stringify({ queue_cursor: '1800000000:10:2' }),
};

describe('a room status basis', () => {
  it("copies the settings the status needs, the room's over the service's, its unusable values passed over", () => {
    expect(basisSettings(store, 'sale')).toEqual({
      allow_percentage: '40',
      wait_period_duration: '20',
      event_start: '2026-12-01T10:00:00Z',
    });
  });

  it('is written for every room the routing names, beside what its live value holds', () => {
    const next = applyWrites(store, statusBasisWrites(store, 1_800_000_000));
    expect(storedBasis(next, 'shop')).toEqual({ at: 1_800_000_000, settings: basisSettings(store, 'shop') });
    expect(JSON.parse(next['room.sale.live']!).queue_cursor).toBe('1800000000:10:2');
    // Nothing to write again while the settings it copies stay as they are...
    expect(statusBasisWrites(next, 1_800_000_100)).toEqual({});
    // ...unless asked to date it anew.
    expect(Object.keys(statusBasisWrites(next, 1_800_000_100, new Set(['shop'])))).toEqual(['room.shop.live']);
    // A change of a copied setting rewrites the bases it reaches; another setting, none.
    const changed = { ...next, settings: next.settings!.replace('"40"', '"60"') };
    expect(Object.keys(statusBasisWrites(changed, 1_800_000_200)).sort()).toEqual(['room.sale.live', 'room.shop.live']);
    expect(statusBasisWrites({ ...next, settings: next.settings!.replace('"x"', '"y"') }, 1_800_000_200)).toEqual({});
  });

  it("after tune's own writes, only where they change a copied setting, or the routing names a new room", () => {
    const next = applyWrites(store, statusBasisWrites(store, 1_800_000_000));
    const noBasis: Record<string, string> = { ...next };
    delete noBasis['room.shop.live'];
    // A setting the status does not copy: nothing, even for the room without a basis.
    const logged = { ...noBasis, settings: noBasis.settings!.replace('"x"', '"y"') };
    expect(statusBasisWrites(logged, 1_800_000_100, new Set(), noBasis)).toEqual({});
    // One it copies, in one room: that room's basis alone.
    const sale = { ...noBasis, 'room.sale': JSON.stringify({ queue_all: 'true' }) };
    expect(Object.keys(statusBasisWrites(sale, 1_800_000_100, new Set(), noBasis))).toEqual(['room.sale.live']);
    // A room the routing names anew.
    const three = JSON.stringify({ rooms: [...JSON.parse(ROUTING).rooms, { id: 'vip', routes: ['/vip'] }] });
    expect(Object.keys(statusBasisWrites({ ...next, routing: three }, 1_800_000_100, new Set(), next))).toEqual([
      'room.vip.live',
    ]);
  });

  it('is removed from a room the routing no longer names, and left alone when the routing is unusable', () => {
    const next = applyWrites(store, statusBasisWrites(store, 1_800_000_000));
    const shopOnly = { ...next, routing: JSON.stringify({ rooms: [{ id: 'shop', routes: ['/'] }] }) };
    expect(statusBasisWrites(shopOnly, 1_800_000_100)).toEqual({
      'room.sale.live': JSON.stringify({ queue_cursor: '1800000000:10:2' }),
    });
    expect(statusBasisWrites({ ...next, routing: 'not json' }, 1_800_000_100)).toEqual({});
  });
});
