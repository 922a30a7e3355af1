// Control models for the planner thread's tests (test/control/rooms/worker-rooms.test.ts): the real model,
// with a plan that waits at a gate, or one that breaks on the first line. Loaded inside the worker
// thread by URL (WorkerRoomsOptions.modelModule), so their options are plain data.
import { createControlModel } from '../../control/model/index.js';
import type { ControlModel } from '../../control/types.js';

/** gate[0] = 0: a plan waits; 1: it goes on. gate[1] counts the plans that have started. */
export function createGatedModel(options: { gate: SharedArrayBuffer }): ControlModel {
  const real = createControlModel();
  const gate = new Int32Array(options.gate);
  return {
    settings: (values, nowMs) => real.settings(values, nowMs),
    observe: (line) => real.observe(line),
    observeOrigin: (line) => real.observeOrigin(line),
    plan: (...args: Parameters<ControlModel['plan']>) => {
      Atomics.add(gate, 1, 1);
      Atomics.wait(gate, 0, 0);
      return real.plan(...args);
    },
    written: (values, ok, nowMs) => real.written(values, ok, nowMs),
    snapshot: (nowMs) => real.snapshot(nowMs),
    save: () => real.save(),
  };
}

/** A model that throws on the first line it sees: in the planner thread, an error no plan catches. */
export function createBrokenModel(): ControlModel {
  const real = createControlModel();
  return {
    ...real,
    observe: () => {
      throw new Error('the model broke on a line');
    },
  };
}

/** A model whose first plan throws: the planner thread answers with the error and goes on. */
export function createOnceFailingModel(): ControlModel {
  const real = createControlModel();
  let failed = false;
  return {
    ...real,
    plan: (...args: Parameters<ControlModel['plan']>) => {
      if (!failed) {
        failed = true;
        throw new Error('the plan broke once');
      }
      return real.plan(...args);
    },
  };
}
