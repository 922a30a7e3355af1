// The settings of scheduled events and the queue's cursor: each good spelling parsed, each bad one a
// problem named by its key with the safe reading (docs/events.md).
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../../src/core/settings/index.js';

const parse = (settings: Record<string, string>) =>
  parseConfig((k) => ({ allow_percentage: '10', ...settings })[k] ?? null);

describe('event times', () => {
  it('reads ISO 8601 times with a zone, in any zone, as the same moment everywhere', () => {
    const { config, problems } = parse({
      event_prequeue_start: '2026-12-01T09:30:00Z',
      event_start: '2026-12-01T11:00:00+01:00',
      event_end: '2026-12-01T12:00Z',
      event_end_action: 'close',
    });
    expect(problems).toEqual([]);
    expect(config.event).toEqual({
      prequeueStart: Date.UTC(2026, 11, 1, 9, 30) / 1000,
      start: Date.UTC(2026, 11, 1, 10, 0) / 1000,
      end: Date.UTC(2026, 11, 1, 12, 0) / 1000,
      endAction: 'close',
    });
  });

  it.each([
    ['2026-12-01T10:00:00', 'no zone'],
    ['2026-02-30T10:00:00Z', 'a day that does not exist'],
    ['tomorrow at ten', 'words'],
    ['1764583200', 'epoch seconds'],
  ])('refuses %s (%s): no event, and the key named', (value) => {
    const { config, problems } = parse({ event_start: value });
    expect(config.event).toBeNull();
    expect(problems.map((p) => p.key)).toEqual(['event_start']);
  });

  it('ignores a pre-queue that opens after the start and an end before it, saying which', () => {
    const { config, problems } = parse({
      event_prequeue_start: '2026-12-01T11:00:00Z',
      event_start: '2026-12-01T10:00:00Z',
      event_end: '2026-12-01T09:00:00Z',
    });
    expect(config.event).toMatchObject({ prequeueStart: null, end: null });
    expect(problems.map((p) => p.key)).toEqual(['event_prequeue_start', 'event_end']);
  });

  it('says that a pre-queue or an end without a start makes no event', () => {
    const { config, problems } = parse({ event_end: '2026-12-01T09:00:00Z' });
    expect(config.event).toBeNull();
    expect(problems.map((p) => p.key)).toEqual(['event_start']);
  });
});

describe('queue settings', () => {
  it('reads the method, hold, message and how long a place is kept', () => {
    const { config, problems } = parse({
      queueing_method: 'FIFO',
      queue_all: 'true',
      message: '  Doors at ten.  ',
      place_kept_seconds: '600',
    });
    expect(problems).toEqual([]);
    expect(config).toMatchObject({
      queueingMethod: 'fifo',
      queueAll: true,
      message: 'Doors at ten.',
      placeKeptSeconds: 600,
    });
  });

  it('falls back to the draw, no hold and 180 s for bad values', () => {
    const { config, problems } = parse({ queueing_method: 'lifo', queue_all: 'yes', place_kept_seconds: '0' });
    expect(config).toMatchObject({ queueingMethod: 'random', queueAll: false, placeKeptSeconds: 180 });
    expect(problems.map((p) => p.key)).toEqual(['queueing_method', 'queue_all', 'place_kept_seconds']);
  });

  it('cuts a message past 500 characters and says so', () => {
    const { config, problems } = parse({ message: 'x'.repeat(600) });
    expect(config.message).toHaveLength(500);
    expect(problems.map((p) => p.key)).toEqual(['message']);
  });

  it('reads the cursor and the counts the controller publishes', () => {
    const { config, problems } = parse({
      queue_cursor: '1764583200:1764583199.25:0.004',
      queue_counts: '1764583199.25=0,1764583199.5=120,1764583210=400',
    });
    expect(problems).toEqual([]);
    expect(config.queueCursor).toEqual({ at: 1764583200, pos: 1764583199.25, speed: 0.004 });
    expect(config.queueCounts).toHaveLength(3);
  });

  it.each([
    ['queue_cursor', '1764583200:abc:1'],
    ['queue_cursor', '1764583200:5:-1'],
    ['queue_counts', '10=5,9=6'],
    ['queue_counts', '10=5,11=4'],
    ['queue_counts', '10=five'],
  ])('treats an unusable %s (%s) as unset', (key, value) => {
    const { config, problems } = parse({ [key]: value });
    expect(config.queueCursor).toBeNull();
    expect(config.queueCounts).toEqual([]);
    expect(problems.map((p) => p.key)).toEqual([key]);
  });
});
