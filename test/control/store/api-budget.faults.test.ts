// The API budget when the API keeps refusing: the controller wired as `npm run control -- --service`
// wires it (the Fastly store over the API with a token, the writer, the budget, the failover with its
// heartbeat, the real model), against the stand-in of Fastly's API answering every write 400, or every
// call to the store 503, on a fake clock ticking once a second for more than an hour. The store holds
// a heartbeat past its lease (a controller that ran before), so this one starts in learning mode,
// when it writes its heartbeat alone. What an operator (and Fastly's rate limit) would see: the calls
// the stand-in counted in any trailing hour and in any few minutes, and what the controller said.
import { afterEach, describe, expect, it } from 'vitest';
import { ApiBudget, DEFAULT_API_BUDGET, type StoreCall } from '../../../control/store/api-budget.js';
import { FailoverController, Failover } from '../../../control/failover/index.js';
import { fastlyStore } from '../../../control/store/fastly-store.js';
import { createControlModel } from '../../../control/model/index.js';
import { Writer } from '../../../control/store/writer.js';
import { seedService } from '../../../fastly-api/seed.js';
import { startFastlyApi, type FastlyApi, type Fault } from '../../../fastly-api/server.js';
import { STANDIN_TOKEN } from '../../../lib/fastly-env.js';
import { TWO_ROOMS } from '../control-process.js';
import { crowdSecond, TWO_ROOM_CROWD } from '../crowd.js';

const T0 = Date.UTC(2026, 11, 5, 10, 0, 0);
const HOUR = 3_600_000;
/** A controller that ran before: its heartbeat 15 minutes old, past its 10-minute lease. */
const OLD_BEAT = JSON.stringify({
  id: 'old1',
  host: 'ops-0',
  pid: 1,
  started: T0 / 1000 - 7200,
  beat: T0 / 1000 - 900,
  lease: 600,
});

let api: FastlyApi | null = null;
afterEach(async () => {
  await api?.stop();
  api = null;
});

/** Runs the controller for `seconds` of the fake clock against the stand-in with `faults`: the calls the stand-in counted, and what the controller said. */
async function run(faults: Fault[], seconds: number) {
  let now = T0;
  api = await startFastlyApi({ clock: () => now, faults });
  const ids = seedService(api, { config: { ...TWO_ROOMS, controller: OLD_BEAT } });
  const said: string[] = [];
  const log = (m: string): void => void said.push(m);
  const budget = new ApiBudget({ perHour: DEFAULT_API_BUDGET, readEveryMs: 60_000, heartbeatEveryMs: 200_000, log });
  const report = (call: StoreCall): void => budget.record(call, now);
  const store = fastlyStore({
    serviceId: 'SVC',
    storeId: ids.configStoreId,
    dryRun: false,
    token: STANDIN_TOKEN,
    endpoint: api.url,
    report,
    log,
  });
  const writer = new Writer(store, 0, log, budget);
  const failover = new Failover({
    store: 'service SVC',
    leaseSeconds: 600,
    leadSeconds: 25,
    resume: null,
    saver: null,
    budget,
    startedMs: now,
    log,
  });
  const controller = new FailoverController({
    createModel: () => createControlModel({ leadSeconds: 25 }),
    store,
    writer,
    sourceName: 'test',
    lagLimitMs: 60_000,
    log,
    failover,
  });
  const seq = { n: 0 };
  for (let s = 0; s < seconds; s++) {
    now = T0 + s * 1000;
    for (const line of crowdSecond(TWO_ROOM_CROWD, now, seq)) controller.line(line, now);
    await controller.tick(now);
  }
  return { said, at: api.calls.filter((c) => c.limited).map((c) => c.at), snapshot: controller.snapshot(now) };
}

/** The most calls within any `spanMs`. */
function busiest(at: number[], spanMs: number): number {
  let most = 0;
  for (let i = 0, j = 0; i < at.length; i++) {
    while (at[i]! - at[j]! >= spanMs) j++;
    most = Math.max(most, i - j + 1);
  }
  return most;
}

const REFUSAL = JSON.stringify({ msg: 'Bad request', detail: 'item_value of room.shop.live: not a valid value' });

describe('the API budget when the API keeps refusing', () => {
  it.each([
    [
      'every write answered 400',
      { method: 'PATCH', path: /\/items$/, status: 400, body: REFUSAL },
      /answered 400 to PATCH \/resources\/stores\/config\/SVC-config\/items \(.*not a valid value/,
    ],
    [
      'every call to the store answered 503',
      { path: /^\/resources\/stores\/config\//, status: 503 },
      /answered 503 to (GET|PATCH) \/resources\/stores\/config\/SVC-config\/items/,
    ],
  ] as const)(
    '%s: at most the budget (300) in any hour, at its pace, and the failure said once, then summarized',
    async (_name, fault, message) => {
      const { said, at, snapshot } = await run([{ ...fault }], 3900);
      // Fastly's token is spent by the hour: the controller keeps to its own 300...
      expect(busiest(at, HOUR)).toBeLessThanOrEqual(DEFAULT_API_BUDGET);
      // ...at its pace, not in a burst that leaves the hour's last minutes without a call (300 an hour is 25 in 5 minutes).
      expect(busiest(at, 300_000)).toBeLessThanOrEqual(30);
      // Said once with what the API said, then summarized (every 10 minutes): not a line a tick, nor one a read.
      const failures = said.filter((l) => message.test(l));
      expect(failures.length).toBeGreaterThanOrEqual(1);
      expect(failures.length).toBeLessThanOrEqual(8);
      expect(said.length).toBeLessThanOrEqual(20);
      expect(said.filter((l) => l.startsWith('taking over')).length).toBeLessThanOrEqual(1);
      expect(snapshot.writes.done).toBe(0);
    },
    120_000,
  );
});
