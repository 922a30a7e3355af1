// The load bench/room.ts puts on its scenarios: closed-loop clients over keep-alive connections, a
// warm-up, then rounds whose order rotates so drift on a busy machine lands on every scenario alike.
import http from 'node:http';
import { processCpu } from './cpu.js';
import { closedLoop, get } from './http-load.js';
import type { Scenario } from './room-scenarios.js';

/** One scenario's requests in one round. */
export interface Sample {
  latenciesMs: number[];
  elapsedMs: number;
  /** CPU the serving host process used meanwhile (all its threads), ms. */
  hostCpuMs: number;
  /** Of which the host's main thread. */
  hostMainCpuMs: number;
  errors: number;
  unexpected: number;
}

export interface Rounds {
  rounds: number;
  /** Seconds of load per scenario per round. */
  seconds: number;
  warmupSeconds: number;
}

export interface Load {
  /** One GET over the load's connections. */
  get(url: string, headers: Record<string, string>): Promise<{ status: number; headers: http.IncomingHttpHeaders }>;
  /** Every scenario for `warmupSeconds`, then `rounds` rounds; each scenario's samples, one a round. */
  measure(scenarios: Scenario[], rounds: Rounds): Promise<Map<string, Sample[]>>;
  close(): void;
}

/** `concurrency` clients, each sending its next request as soon as the last one is answered. */
export function closedLoopLoad(concurrency: number): Load {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const request = (url: string, headers: Record<string, string>) => get(agent, url, headers);

  async function load(scenario: Scenario, durationMs: number): Promise<Sample> {
    const sample: Sample = { latenciesMs: [], elapsedMs: 0, hostCpuMs: 0, hostMainCpuMs: 0, errors: 0, unexpected: 0 };
    const cpuBefore = processCpu(scenario.pid);
    const start = performance.now();
    const end = start + durationMs;
    await closedLoop(
      concurrency,
      () => performance.now() < end,
      async () => {
        const t0 = performance.now();
        try {
          const res = await request(
            scenario.url,
            typeof scenario.headers === 'function' ? scenario.headers() : scenario.headers,
          );
          sample.latenciesMs.push(performance.now() - t0);
          if (!scenario.expect(res.status, res.headers)) sample.unexpected++;
        } catch {
          sample.errors++;
        }
      },
    );
    sample.elapsedMs = performance.now() - start;
    const cpuAfter = processCpu(scenario.pid);
    sample.hostMainCpuMs = cpuAfter.mainMs - cpuBefore.mainMs;
    sample.hostCpuMs = sample.hostMainCpuMs + cpuAfter.otherMs - cpuBefore.otherMs;
    return sample;
  }

  return {
    get: request,
    async measure(scenarios, { rounds, seconds, warmupSeconds }) {
      for (const scenario of scenarios) await load(scenario, warmupSeconds * 1000);
      const samples = new Map<string, Sample[]>(scenarios.map((s) => [s.name, []]));
      for (let r = 0; r < rounds; r++) {
        // Rotate the order every round so no scenario always runs first or right after another.
        const order = scenarios.map((_, i) => scenarios[(i + r) % scenarios.length]!);
        for (const scenario of order) samples.get(scenario.name)!.push(await load(scenario, seconds * 1000));
        process.stderr.write(`round ${r + 1}/${rounds} done\n`);
      }
      return samples;
    },
    close: () => agent.destroy(),
  };
}
