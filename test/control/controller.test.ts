// The controller process without its I/O: a fake store and clock, the real model and parser.
import { describe, expect, it } from 'vitest';
import { Controller } from '../../control/controller.js';
import { createControlModel } from '../../control/model/index.js';
import { Writer, type Store } from '../../control/writer.js';
import { admittedLine } from './lines.js';

const T0 = Date.UTC(2026, 10, 24, 12);

function fakeStore(values: Record<string, string>) {
  const writes: Record<string, string>[] = [];
  let failing: string | null = null;
  const store: Store = {
    name: 'fake store',
    read: async () => ({ ...values }),
    async write(w) {
      if (failing !== null) throw new Error(failing);
      writes.push(w);
      for (const [k, v] of Object.entries(w)) {
        if (v === '') delete values[k];
        else values[k] = v;
      }
    },
  };
  return { store, writes, values, fail: (why: string | null) => (failing = why) };
}

const admitted = (ms: number, i: number): string => admittedLine(ms, i);

function setup(values: Record<string, string>) {
  const fake = fakeStore(values);
  const logs: string[] = [];
  const writer = new Writer(fake.store, 20_000, (m) => logs.push(m));
  const controller = new Controller({ model: createControlModel(), store: fake.store, writer, sourceName: 'test', lagLimitMs: 60_000, log: (m) => logs.push(m) });
  return { ...fake, logs, writer, controller };
}

describe('the controller process', () => {
  it('engages an open room that admits past the target, through the store', async () => {
    const { controller, writes, values } = setup({ allow_percentage: '100', new_users_per_minute: '60', wait_period_duration: '30' });
    for (let i = 0; i < 100; i++) controller.line(admitted(T0 + i * 100, i), T0 + i * 100);
    await controller.tick(T0 + 10_000);
    expect(writes).toHaveLength(1);
    expect(Number(values.allow_percentage)).toBeLessThan(100);
    expect(controller.snapshot(T0 + 10_000).source).toMatchObject({ state: 'ok', lines: 100, bad: 0 });
  });

  it('counts garbage and foreign lines and goes on', () => {
    const { controller, logs } = setup({ allow_percentage: '100' });
    controller.line('hello', T0);
    controller.line('{"wr":1,"ts":"nope"}', T0);
    controller.line(admitted(T0, 1), T0);
    expect(controller.snapshot(T0).source).toMatchObject({ lines: 1, bad: 1, foreign: 1 });
    expect(logs.join('\n')).toMatch(/skipped a decision line \(ts is missing/);
  });

  it('holds, and says so, when the source lags or dies; writes nothing then', async () => {
    const { controller, writes, logs } = setup({ allow_percentage: '100', new_users_per_minute: '60', wait_period_duration: '30' });
    for (let i = 0; i < 100; i++) controller.line(admitted(T0 + i * 100, i), T0 + i * 100);
    await controller.tick(T0 + 100_000); // 90 s without a line
    expect(writes).toEqual([]);
    expect(controller.snapshot(T0 + 100_000)).toMatchObject({ holding: true, source: { state: 'lagging' } });
    controller.source('stdin closed', true);
    await controller.tick(T0 + 101_000);
    expect(controller.snapshot(T0 + 101_000).holdingWhy).toMatch(/down \(stdin closed\)/);
    expect(logs.some((l) => l.startsWith('holding'))).toBe(true);
  });

  it('reports a failed write, keeps going, and sends it again later', async () => {
    const { controller, fail, writes } = setup({ allow_percentage: '100', new_users_per_minute: '60', wait_period_duration: '30' });
    for (let i = 0; i < 100; i++) controller.line(admitted(T0 + i * 100, i), T0 + i * 100);
    fail('API rate limit exceeded');
    await controller.tick(T0 + 10_000);
    expect(controller.snapshot(T0 + 10_000).lastWrite).toMatchObject({ ok: false, error: 'API rate limit exceeded' });
    fail(null);
    await controller.tick(T0 + 31_000);
    expect(writes).toHaveLength(1);
    expect(controller.snapshot(T0 + 31_000).writes).toMatchObject({ done: 1, failed: 1 });
  });

  it('holds when the settings cannot be read', async () => {
    const { controller, store } = setup({ allow_percentage: '100' });
    store.read = async () => {
      throw new Error('permission denied');
    };
    controller.line(admitted(T0, 1), T0);
    await controller.tick(T0 + 1000);
    expect(controller.snapshot(T0 + 1000).holdingWhy).toMatch(/cannot read the settings from fake store: permission denied/);
  });
});

describe('the writer', () => {
  it('refuses a value the room would not use, naming the key', async () => {
    const { writer, writes } = setup({});
    expect(await writer.offer({ allow_schedule: 'garbage' }, T0)).toBe(false);
    expect(writes).toEqual([]);
    expect(writer.lastWrite?.error).toMatch(/allow_schedule/);
  });

  it('spaces its writes', async () => {
    const { writer, writes } = setup({});
    expect(await writer.offer({ allow_percentage: '10' }, T0)).toBe(true);
    expect(await writer.offer({ allow_percentage: '20' }, T0 + 5000)).toBe(false);
    expect(await writer.offer({ allow_percentage: '30' }, T0 + 20_000)).toBe(true);
    expect(writes).toEqual([{ allow_percentage: '10' }, { allow_percentage: '30' }]);
    expect(writer.deferred).toBe(1);
  });
});
