import { describe, expect, it } from 'vitest';
import { ConfigStores, MAX_ENTRIES } from '../../fastly-api/config-store.js';

const now = () => Date.UTC(2026, 10, 26, 10, 0, 0, 500);

function full(): { stores: ConfigStores; id: string } {
  const stores = new ConfigStores(now);
  const id = stores.create('waiting_room_config', 'CFG').id;
  stores.seed(id, Object.fromEntries(Array.from({ length: MAX_ENTRIES }, (_, i) => [`k${i}`, 'v'])));
  return { stores, id };
}

describe('a Config Store in the stand-in', () => {
  it("answers items in Fastly's shape", () => {
    const stores = new ConfigStores(now);
    stores.create('waiting_room_config', 'CFG');
    expect(stores.setItem('CFG', 'settings', '{}', 'upsert')).toEqual({
      status: 200,
      body: {
        item_key: 'settings',
        item_value: '{}',
        created_at: '2026-11-26T10:00:00Z',
        updated_at: '2026-11-26T10:00:00Z',
        deleted_at: null,
        store_id: 'CFG',
      },
    });
    expect(stores.listItems('CFG').body).toHaveLength(1);
    expect(stores.getItem('CFG', 'nope')).toEqual({ status: 404, body: { msg: 'Record not found' } });
    expect(stores.listItems('OTHER').status).toBe(404);
  });

  it('refuses a value over 8,000 characters and a key over 255, saying which and why', () => {
    const stores = new ConfigStores(now);
    stores.create('c', 'CFG');
    const long = stores.setItem('CFG', 'settings', 'x'.repeat(8001), 'upsert');
    expect(long.status).toBe(400);
    expect(long.body).toEqual({
      msg: 'Bad request',
      detail: 'item_value of settings is 8001 characters; a Config Store value may have at most 8000',
    });
    expect(stores.setItem('CFG', 'settings', 'x'.repeat(8000), 'upsert').status).toBe(200);
    expect(stores.setItem('CFG', 'k'.repeat(256), 'v', 'upsert').status).toBe(400);
  });

  it('refuses a 501st entry but takes a change to one of the 500', () => {
    const { stores, id } = full();
    const refused = stores.setItem(id, 'one-more', 'v', 'upsert');
    expect(refused.status).toBe(400);
    expect((refused.body as { detail: string }).detail).toMatch(/holds 500 items, the most a Config Store may hold/);
    expect(stores.setItem(id, 'k7', 'changed', 'upsert').status).toBe(200);
    expect(Object.keys(stores.values(id))).toHaveLength(MAX_ENTRIES);
  });

  it('applies a batch whole or not at all', () => {
    const { stores, id } = full();
    const swap = {
      items: [
        { op: 'delete', item_key: 'k0' },
        { op: 'upsert', item_key: 'new', item_value: 'v' },
      ],
    };
    expect(stores.batch(id, swap)).toEqual({ status: 200, body: { status: 'ok' } });
    expect(stores.values(id).new).toBe('v');
    const bad = {
      items: [
        { op: 'upsert', item_key: 'k1', item_value: 'fine' },
        { op: 'upsert', item_key: 'k2', item_value: 'x'.repeat(9000) },
      ],
    };
    const answer = stores.batch(id, bad);
    expect(answer.status).toBe(400);
    expect((answer.body as { detail: string }).detail).toMatch(/^operation 2: item_value of k2 is 9000 characters/);
    expect(stores.values(id).k1).toBe('v');
    expect(stores.batch(id, { items: [{ op: 'create', item_key: 'k1', item_value: 'v' }] }).status).toBe(409);
    expect(stores.batch(id, { items: [{ op: 'update', item_key: 'gone', item_value: 'v' }] }).status).toBe(404);
    expect(stores.batch(id, { items: [{ op: 'rename', item_key: 'k1' }] }).status).toBe(400);
    expect(stores.batch(id, [{ op: 'upsert' }]).status).toBe(400);
  });
});
