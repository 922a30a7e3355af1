// The built room (bin/main.wasm) under Fastly's per-execution limits: how many Config Store lookups
// and how much CPU time each kind of request costs it, read from the host's -v usage line. Fastly
// allows 32 lookups and 50 ms of CPU time per execution; the room must stay within them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintToken, startRoom, waitFor, type Room } from '../../../lib/room-host';

let room: Room;

beforeAll(async () => {
  // One worker, so every request after the first meets a worker that has compiled the room already.
  room = await startRoom({ settings: { allow_percentage: '100' }, hostArgs: ['-v', '--workers', '1', '--max-workers', '1'] });
});

afterAll(async () => {
  await room?.stop();
});

interface Usage {
  /** The room's decision and reason, from its log line. */
  decision: string;
  lookups: number;
  backends: number;
  cpuMs: number;
}

const usageLines = () => room.logs().filter((line) => line.startsWith('usage: '));

/** One request, and what the host says it used. */
async function measure(headers: Record<string, string> = {}): Promise<{ status: number; usage: Usage }> {
  const before = usageLines().length;
  const res = await fetch(`${room.url}/`, { headers, redirect: 'manual' });
  await res.arrayBuffer();
  // The line comes as the guest finishes the request, which can be just after its response.
  const line = await waitFor(() => usageLines()[before]);
  const m = /config_lookups=(\d+) backend_requests=(\d+) cpu_ms=([\d.]+)/.exec(line);
  if (!m) throw new Error(`no usage line for the request:\n${room.logs().slice(-5).join('\n')}`);
  const logged = room.decisions().at(-1) ?? {};
  const decision = `${String(logged.outcome)}/${String(logged.reason)}`;
  return { status: res.status, usage: { decision, lookups: Number(m[1]), backends: Number(m[2]), cpuMs: Number(m[3]) } };
}

/** The figures measured, printed at the end for the record (the report and docs/performance.md). */
const figures: Record<string, Usage> = {};

afterAll(() => {
  console.log(
    `the room's cost per request on the local host:\n${Object.entries(figures)
      .map(([what, u]) => `  ${what} (${u.decision}): ${u.lookups} Config Store lookups, ${u.backends} backend request(s), ${u.cpuMs} ms CPU`)
      .join('\n')}`,
  );
});

describe('the room within the per-execution limits', () => {
  it('makes at most 32 Config Store lookups for a new visitor and for a returning admitted one', async () => {
    figures['new visitor, admitted (a fresh worker)'] = (await measure()).usage;
    const visitor = await measure();
    expect(visitor.status).toBe(200);
    figures['new visitor, admitted'] = visitor.usage;
    const exp = Math.floor(Date.now() / 1000) + 600;
    const returning = await measure({ cookie: `waiting_room=${await mintToken(room, { dec: 'allow', exp })}` });
    expect(returning.status).toBe(200);
    figures['returning admitted visitor'] = returning.usage;
    for (const what of ['new visitor, admitted', 'returning admitted visitor']) {
      expect(figures[what]!.lookups, what).toBeGreaterThan(0);
      expect(figures[what]!.lookups, what).toBeLessThanOrEqual(32);
      expect(figures[what]!.backends, what).toBe(1);
    }
    expect(room.errors().filter((line) => line.includes(': limit: '))).toEqual([]);
  });

  // Known over the limit until the room reads its settings as a few values (issue 21): a reused
  // sandbox that sees a setting change reads the settings it kept until one differs, then every
  // setting again to parse them (35 here, 56 when the changed key is read last). The lookups past the
  // 32nd fail, and the settings they read count as absent (active_key among them). This test fails
  // (so `it.fails` passes) while that is so; once the room stays within 32 `it.fails` reports it:
  // make it an `it` then.
  it.fails('stays within 32 lookups on the first request after a setting changes', async () => {
    await room.setConfig({ allow_percentage: '50', queue_all: 'true' });
    const changed = await measure();
    figures['new visitor, first request after a setting change'] = changed.usage;
    expect(changed.usage.lookups).toBeLessThanOrEqual(32);
  });

  it('makes at most 32 lookups for a new visitor shown the waiting page', async () => {
    const waiting = await measure();
    expect(waiting.usage.decision).toBe('startwaiting/queue_all');
    figures['new visitor, waiting page (queue_all=true)'] = waiting.usage;
    expect(waiting.usage.lookups).toBeLessThanOrEqual(32);
  });
});
