// The status request's query (src/core/status/status-query.ts): one room id, nothing else.
import { expect, it } from 'vitest';
import { readStatusQuery } from '../../../src/core/status/index.js';

const read = (query: string) => readStatusQuery(new URLSearchParams(query));

it('takes one room id', () => {
  expect(read('room=shop')).toEqual({ room: 'shop' });
  expect(read('room=room-19_b')).toEqual({ room: 'room-19_b' });
});

it('refuses a missing, repeated or malformed room, and any other parameter, saying which', () => {
  expect(read('').problem).toMatch(/room is missing/);
  expect(read('room=shop&room=sale').problem).toMatch(/more than once/);
  expect(read('room=Shop').problem).toMatch(/"Shop" is not a room id/);
  expect(read(`room=${'a'.repeat(33)}`).problem).toMatch(/is not a room id/);
  expect(read('room=shop&cachebust=1').problem).toMatch(/unknown parameter "cachebust"/);
});
