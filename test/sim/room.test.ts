import { describe, expect, it } from 'vitest';
import { VirtualRateCounter } from '../../sim/rate-counter.js';
import { createRoom, EPOCH_MS, simulatedKey } from '../../sim/room.js';
import type { AnswerFacts } from '../../src/core/answer/answer.js';
import { handle } from '../../src/core/handler.js';
import { storeFromSettings } from '../../src/core/settings/index.js';
import type { RoomDeps } from '../../src/core/types.js';

describe('a simulated room of several POPs', () => {
  const pops = [
    { name: 'NEAR', propagationMs: 0 },
    { name: 'FAR', propagationMs: 10_000 },
  ];

  it("shows each POP a published setting only after that POP's delay", async () => {
    const room = createRoom({ allow_percentage: '100' }, 's', { pops });
    room.publish({ allow_percentage: '0' }, 1_000);
    expect((await room.request('10.0.0.1', [], 2_000, 0)).outcome).toBe('deny');
    expect((await room.request('10.0.0.2', [], 2_000, 1)).outcome).toBe('origin');
    expect((await room.request('10.0.0.3', [], 11_000, 1)).outcome).toBe('deny');
    expect(room.central().allow_percentage).toBe('0');
  });

  it('removes a key published empty, and refuses a value the room would not parse', () => {
    const room = createRoom({ allow_percentage: '50', new_users_per_minute: '60' }, 's', { pops });
    room.publish({ new_users_per_minute: '' }, 0);
    expect(room.central().new_users_per_minute).toBeUndefined();
    expect(() => room.publish({ allow_percentage: 'lots' }, 0)).toThrow(/allow_percentage/);
  });

  it('logs a decision line per request while log_endpoint is set, naming the POP', async () => {
    const lines: { pop: number; text: string }[] = [];
    const room = createRoom({ allow_percentage: '50', log_endpoint: 'controller' }, 's', {
      pops,
      onLine: (pop, text) => lines.push({ pop, text }),
    });
    await room.request('10.0.0.1', [], 0, 1);
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!.text)).toMatchObject({ wr: 1, pop: 'FAR', newDec: 'wait' });
    // A new wait token's successor is signed for the controller, so its id is in the line.
    expect(JSON.parse(lines[0]!.text).nextTid).toMatch(/^[\w-]{8}$/);
  });

  it('samples waiting decisions as the edge does under log_sample_rate, with the weight in the line', async () => {
    const lines: string[] = [];
    const room = createRoom({ allow_percentage: '50', log_endpoint: 'controller', log_sample_rate: '0.2' }, 's', {
      pops,
      onLine: (_pop, text) => lines.push(text),
    });
    for (let i = 0; i < 200; i++) await room.request(`10.0.${i >> 8}.${i & 255}`, [], 0, 1);
    expect(lines.length).toBeGreaterThan(20);
    expect(lines.length).toBeLessThan(60);
    for (const text of lines) expect(JSON.parse(text)).toMatchObject({ newDec: 'wait', w: 5 });
  });
});

// The simulator's answer against the handler's: the same settings, visitors, cookies and clock on
// both sides, then what each says to the visitor (page, status, Retry-After, estimate, place in line,
// countdown) compared for every waiting, countdown and deny answer.

/** What a visitor is told, as the JSON answer and its headers carry it. */
interface Told {
  page: string;
  status: number;
  retryAfter: number;
  refresh: number;
  estimate: [number, number, number] | null;
  ahead: number | null;
  turn: number | null;
  eventStart: string | null;
  startsIn: number | null;
  allowPercentage: number;
  jitter: number;
  queueingMethod: string;
  message: string;
}

function toldBySimulator(facts: AnswerFacts): Told {
  const e = facts.estimate;
  return {
    page: facts.page,
    status: facts.status,
    retryAfter: facts.retryAfterSeconds,
    refresh: facts.refreshIntervalSeconds,
    estimate: e === null ? null : [e.p25, e.p50, e.p75],
    ahead: facts.place?.ahead ?? null,
    turn: facts.place?.turnSeconds ?? null,
    eventStart: facts.eventStart,
    startsIn: facts.startsInSeconds,
    allowPercentage: facts.allowPercentage,
    jitter: facts.jitterSeconds,
    queueingMethod: facts.queueingMethod,
    message: facts.message,
  };
}

async function toldByHandler(response: Response): Promise<Told> {
  const w = (await response.json()).waitingRoom;
  const p = [w.waitTime25PercentileSeconds, w.waitTime50PercentileSeconds, w.waitTime75PercentileSeconds];
  return {
    page: w.status,
    status: response.status,
    retryAfter: Number(response.headers.get('retry-after')),
    refresh: w.refreshIntervalSeconds,
    estimate: p.every((x) => x === null) ? null : (p as [number, number, number]),
    ahead: w.visitorsAhead,
    turn: w.turnInSeconds,
    eventStart: w.eventStart,
    startsIn: w.startsInSeconds,
    allowPercentage: w.allowPercentage,
    jitter: w.jitterSeconds,
    queueingMethod: w.queueingMethod,
    message: w.message,
  };
}

/** The handler on the simulator's keys and settings, with its own rate counter on the same clock. */
function edgeRoom(settings: Record<string, string>, seed: string) {
  const values = new Map(Object.entries({ active_key: 'sim', ...settings }));
  const keys = new Map([
    ['sim', simulatedKey(seed)],
    ['event-seed', simulatedKey(seed, 'event-seed')],
  ]);
  const counter = new VirtualRateCounter();
  return {
    publish(changes: Record<string, string>): void {
      for (const [k, v] of Object.entries(changes)) {
        if (v === '') values.delete(k);
        else values.set(k, v);
      }
    },
    async request(ip: string, jar: readonly string[], nowMs: number): Promise<{ response: Response; reason: string }> {
      counter.nowMs = nowMs;
      let line = '';
      const deps: RoomDeps = {
        // The handler reads the store as the tools write it (layout.ts): the same settings, service-wide.
        stores: {
          setting: (key) => storeFromSettings(Object.fromEntries(values))[key] ?? null,
          key: async (kid) => keys.get(kid) ?? null,
          page: () => null,
        },
        clientIp: ip,
        now: () => EPOCH_MS + nowMs,
        log: (_endpoint, text) => void (line = text),
        diag: () => undefined,
        origin: async () => new Response('shop'),
        random: () => 0,
        rateCounter: counter,
      };
      const cookie = jar.map((t) => `waiting_room_default=${t}`).join('; ');
      const request = new Request('https://shop.example/', {
        headers: { accept: 'application/json', ...(cookie ? { cookie } : {}) },
      });
      const response = await handle(request, deps);
      return { response, reason: JSON.parse(line).reason };
    },
  };
}

/** The jar after an answer: the cookie it set, or none when it cleared it. */
function jarAfter(response: Response, jar: string[]): string[] {
  const room = response.headers.getSetCookie().find((c) => c.startsWith('waiting_room_default='));
  if (room === undefined) return jar;
  return /Max-Age=0/.test(room) ? [] : [room.slice('waiting_room_default='.length, room.indexOf(';'))];
}

interface Plan {
  settings: Record<string, string>;
  /** Arrival (ms since the run began) of each visitor. */
  arrivals: number[];
  /** Setting changes, published to both rooms. */
  changes?: { atMs: number; values: Record<string, string> }[];
  untilMs: number;
}

/**
 * Both rooms through one plan: each visitor follows the page (back Retry-After and half a second
 * later), and comes back a second after their first answer, too early, and again after their first
 * answer with a place in line. Every answer that is
 * not the origin is compared. Returns the reasons answered, `+place` marking those with a place.
 */
async function twins(plan: Plan, seed = 'twins'): Promise<Set<string>> {
  const sim = createRoom({ active_key: 'sim', ...plan.settings }, seed);
  const edge = edgeRoom(plan.settings, seed);
  const changes = [...(plan.changes ?? [])];
  const due = plan.arrivals.map((atMs, id) => ({ id, atMs, jar: [] as string[], early: true, earlyInLine: true }));
  const seen = new Set<string>();
  for (;;) {
    due.sort((a, b) => a.atMs - b.atMs || a.id - b.id);
    const v = due[0];
    if (v === undefined || v.atMs > plan.untilMs) return seen;
    while (changes.length > 0 && changes[0]!.atMs <= v.atMs) {
      const { atMs, values } = changes.shift()!;
      sim.publish(values, atMs);
      edge.publish(values);
    }
    const bySim = await sim.request(`ip:192.0.2.${v.id}`, v.jar, v.atMs);
    const byEdge = await edge.request(`192.0.2.${v.id}`, v.jar, v.atMs);
    expect(byEdge.reason, `visitor ${v.id} at ${v.atMs} ms`).toBe(bySim.reason);
    const jar = jarAfter(byEdge.response, v.jar);
    expect(jar).toEqual(bySim.clearCookie ? [] : bySim.setToken !== null ? [bySim.setToken] : v.jar);
    if (bySim.outcome === 'origin') {
      expect(bySim.facts).toBeNull();
      due.shift();
      continue;
    }
    const told = await toldByHandler(byEdge.response);
    expect(toldBySimulator(bySim.facts!), `${bySim.reason} for visitor ${v.id} at ${v.atMs} ms`).toEqual(told);
    seen.add(bySim.pos === null ? bySim.reason : `${bySim.reason}+place`);
    v.jar = jar;
    const early = v.early || (bySim.pos !== null && v.earlyInLine);
    v.atMs += early ? 1000 : told.retryAfter * 1000 + 500;
    v.early = false;
    if (bySim.pos !== null) v.earlyInLine = false;
  }
}

const iso = (ms: number): string => new Date(EPOCH_MS + ms).toISOString();
const epochSec = (ms: number): number => (EPOCH_MS + ms) / 1000;
const every = (count: number, stepMs: number, fromMs = 0): number[] =>
  Array.from({ length: count }, (_, i) => fromMs + i * stepMs);

describe("the simulator's answer is the handler's", () => {
  it('in the draw: new, not due, lost, then denied', async () => {
    const seen = await twins({
      settings: { allow_percentage: '20', wait_period_duration: '30', log_endpoint: 'log', message: 'Back soon' },
      arrivals: every(8, 3_700, 1_000),
      changes: [{ atMs: 240_000, values: { allow_percentage: '0' } }],
      untilMs: 300_000,
    });
    expect([...seen]).toEqual(expect.arrayContaining(['no_token', 'wait_not_due', 'draw_lost', 'deny_all']));
  });

  it('under queue_all, in the draw and in a first-come line', async () => {
    const draw = await twins({
      settings: { allow_percentage: '20', queue_all: 'true', log_endpoint: 'log' },
      arrivals: every(5, 7_000, 500),
      untilMs: 150_000,
    });
    expect([...draw]).toEqual(expect.arrayContaining(['queue_all']));
    const T = epochSec(0);
    const line = await twins({
      settings: {
        allow_percentage: '20',
        queueing_method: 'fifo',
        queue_all: 'true',
        queue_cursor: `${T}:${T - 60}:0.2`,
        log_endpoint: 'log',
      },
      arrivals: every(5, 7_000, 500),
      untilMs: 150_000,
    });
    expect([...line]).toEqual(['queue_all+place']);
  });

  it('in a first-come line moved by the cursor, with counts and with a target', async () => {
    const T = epochSec(0);
    const extras: Record<string, string>[] = [
      { queue_counts: `${T}=0,${T + 60}=40,${T + 200}=90` },
      { new_users_per_minute: '30' },
    ];
    for (const extra of extras) {
      const seen = await twins({
        settings: {
          allow_percentage: '20',
          queueing_method: 'fifo',
          queue_cursor: `${T}:${T - 40}:0.5`,
          log_endpoint: 'log',
          ...extra,
        },
        arrivals: every(10, 5_000, 1_000),
        changes: [
          { atMs: 60_000, values: { queue_all: 'true' } },
          { atMs: 100_000, values: { queue_all: '' } },
        ],
        untilMs: 240_000,
      });
      expect([...seen]).toEqual(
        expect.arrayContaining(['no_token+place', 'wait_not_due+place', 'queue_waiting+place', 'queue_all+place']),
      );
    }
  });

  it('through a scheduled event: the countdown, the pre-queue going first, the end', async () => {
    const seen = await twins({
      settings: {
        allow_percentage: '20',
        event_prequeue_start: iso(0),
        event_start: iso(120_000),
        event_end: iso(420_000),
        event_end_action: 'close',
        log_endpoint: 'log',
      },
      // Five in the pre-queue, five after the start.
      arrivals: [...every(5, 11_000, 2_000), ...every(5, 9_000, 125_000)],
      untilMs: 480_000,
    });
    expect([...seen]).toEqual(
      expect.arrayContaining([
        'prequeue_joined',
        'prequeue_waiting',
        'wait_not_due+place',
        'queue_waiting+place',
        'behind_prequeue',
        'event_closed',
      ]),
    );
  });

  it('for winners the ceiling holds', async () => {
    const seen = await twins({
      settings: { allow_percentage: '100', pop_admissions_per_second: '1', log_endpoint: 'log' },
      arrivals: every(16, 100, 1_000),
      changes: [{ atMs: 3_000, values: { queue_all: 'true' } }],
      untilMs: 40_000,
    });
    expect([...seen]).toEqual(expect.arrayContaining(['ceiling_held', 'queue_all']));
  });
});
