// The edge serves the page's solver itself: at its hashed path, for a year, before any routing, so a
// waiting visitor's browser never asks the origin for it and the room logs no decision for it.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { source } from 'waiting-room:solver';
import { SOLVER_PATH, solverAsset } from '../../../src/core/pages/solver-asset.js';
import { FakeRoom } from '../../support/fakes.js';

const ROUTING = JSON.stringify({ rooms: { shop: { routes: ['/'] } }, default: 'shop' });

describe('the solver asset', () => {
  it('is named after the SHA-256 of the script it serves', () => {
    expect(SOLVER_PATH).toBe(
      `/__waiting_room/solver-${createHash('sha256').update(source).digest('hex').slice(0, 8)}.js`,
    );
  });

  it('answers a GET with the script, as JavaScript, cacheable for a year', async () => {
    const room = new FakeRoom({ settings: { allow_percentage: '0' } });
    const answer = await room.visit({ path: SOLVER_PATH });
    expect(answer.response.status).toBe(200);
    expect(answer.response.headers.get('content-type')).toBe('text/javascript');
    expect(answer.response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(answer.body).toBe(source);
    // Never the origin's, no decision, no cookie, no log line.
    expect(answer.fromOrigin).toBe(false);
    expect(answer.roomCookies).toEqual([]);
    expect(room.logs).toEqual([]);
  });

  it('answers a HEAD with the headers alone, whatever the routing says about the path', async () => {
    const room = new FakeRoom({ store: { routing: ROUTING } });
    const answer = await room.visit({ path: SOLVER_PATH, method: 'HEAD' });
    expect(answer.response.status).toBe(200);
    expect(answer.response.headers.get('content-type')).toBe('text/javascript');
    expect(answer.body).toBe('');
    expect(room.seen).toEqual([]);
    expect(room.logs).toEqual([]);
  });

  it('leaves every other request to the room: another method, another hash, a query-less neighbour', async () => {
    expect(solverAsset('POST', SOLVER_PATH)).toBeNull();
    expect(solverAsset('GET', '/__waiting_room/solver-00000000.js')).toBeNull();
    expect(solverAsset('GET', `${SOLVER_PATH}/x`)).toBeNull();
    const room = new FakeRoom({ settings: { allow_percentage: '100' } });
    const post = await room.visit({ path: SOLVER_PATH, method: 'POST', body: 'x' });
    expect(post.fromOrigin).toBe(true);
  });
});
