// The room's public status as the client asks for it and reads it (docs/status.md): scripted answers,
// and the room's own handler.
import { describe, expect, it } from 'vitest';
import { RoomStatusError, roomStatus } from '../../client/index.js';
import { statusBasisWrites } from '../../lib/status-basis.js';
import { handle } from '../../src/core/handler.js';
import { storeFromSettings } from '../../src/core/settings/index.js';
import { FakeRoom } from '../support/fakes.js';

/** A network that answers `response` once, recording the request. */
function answering(response: Response): { fetch: typeof fetch; requests: Request[] } {
  const requests: Request[] = [];
  return {
    requests,
    fetch: async (input, init) => {
      requests.push(new Request(input, init));
      return response;
    },
  };
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json; charset=utf-8' } });

const QUEUEING = {
  room: 'shop',
  state: 'queueing',
  reason: 'draw',
  waitTime25PercentileSeconds: 21,
  waitTime50PercentileSeconds: 42,
  waitTime75PercentileSeconds: 84,
  waitTimePending: false,
  chancePercentage: 50,
  chanceSource: 'allow_percentage',
  queueingMethod: 'random',
  eventPrequeueStart: null,
  eventStart: null,
  eventEnd: null,
  startsInSeconds: null,
  updated: '2026-12-07T12:00:00Z',
};

describe('roomStatus', () => {
  it('asks the room’s status path for the room, without the visitor’s cookie, and reads every field', async () => {
    const net = answering(json(QUEUEING));
    const status = await roomStatus('https://shop.example/any/page', 'shop', { fetch: net.fetch });
    expect(net.requests[0]!.url).toBe('https://shop.example/__waiting_room/status?room=shop');
    expect(net.requests[0]!.credentials).toBe('omit');
    const { raw, ...read } = status;
    expect(read).toEqual(QUEUEING);
    expect(raw).toEqual(QUEUEING);
  });

  it('reads a countdown, and a state it does not know as unknown', async () => {
    const countdown = { ...QUEUEING, state: 'countdown', reason: 'prequeue', startsInSeconds: 600 };
    expect(await roomStatus('https://shop.example', 'shop', { fetch: answering(json(countdown)).fetch })).toMatchObject(
      {
        state: 'countdown',
        startsInSeconds: 600,
      },
    );
    const later = { ...QUEUEING, state: 'paused' };
    expect((await roomStatus('https://shop.example', 'shop', { fetch: answering(json(later)).fetch })).state).toBe(
      'unknown',
    );
  });

  it('rejects with the room’s error code and message, or the HTTP status when the answer is not the room’s', async () => {
    const missing = answering(json({ error: 'unknown_room', message: 'no room nope' }, 404));
    await expect(roomStatus('https://shop.example', 'nope', { fetch: missing.fetch })).rejects.toMatchObject({
      name: 'RoomStatusError',
      code: 'unknown_room',
      message: 'no room nope',
      httpStatus: 404,
    });
    const proxy = answering(new Response('<h1>Bad gateway</h1>', { status: 502 }));
    const error = await roomStatus('https://shop.example', 'shop', { fetch: proxy.fetch }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RoomStatusError);
    expect(error).toMatchObject({ code: 'http_502', httpStatus: 502 });
  });
});

describe('roomStatus against the room’s own handler', () => {
  /** The room with its status basis written as npm run tune writes it. */
  function described(settings: Record<string, string>): FakeRoom {
    const room = new FakeRoom({ settings });
    const store = { ...storeFromSettings(Object.fromEntries(room.settings)), ...Object.fromEntries(room.store) };
    for (const [k, v] of Object.entries(statusBasisWrites(store, room.nowSec))) room.store.set(k, v);
    return room;
  }
  const through =
    (room: FakeRoom): typeof fetch =>
    async (input, init) =>
      handle(new Request(input, init), room.deps());

  it('reads each state as the room answers it', async () => {
    const queueing = await roomStatus('http://shop.example', 'default', {
      fetch: through(described({ allow_percentage: '20' })),
    });
    expect(queueing).toMatchObject({ room: 'default', state: 'queueing', reason: 'draw', chancePercentage: 20 });
    expect(queueing.waitTime50PercentileSeconds).toBeGreaterThan(0);
    expect(queueing.updated).toMatch(/^\d{4}-\d\d-\d\dT/);
    const open = await roomStatus('http://shop.example', 'default', {
      fetch: through(described({ allow_percentage: '100' })),
    });
    expect(open).toMatchObject({ state: 'open', reason: 'allow_all', waitTime50PercentileSeconds: 0 });
    const closed = await roomStatus('http://shop.example', 'default', {
      fetch: through(described({ allow_percentage: '0' })),
    });
    expect(closed).toMatchObject({ state: 'closed', reason: 'deny_all' });
  });

  it('rejects with the room’s code for a room it does not have', async () => {
    const room = described({ allow_percentage: '20' });
    await expect(roomStatus('http://shop.example', 'nope', { fetch: through(room) })).rejects.toMatchObject({
      code: 'unknown_room',
      httpStatus: 404,
    });
  });
});
