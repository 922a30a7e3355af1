// The production path rehearsed on this machine, through the real Fastly CLI against the stand-in of
// Fastly's API (docs/production.md): the door to the rehearsal for `npm run rehearse` and its test.
import { closeRehearsal, openRehearsal, type Rehearsal } from './context.js';
import { controlSteps } from './control-steps.js';
import { operateSteps } from './operate-steps.js';
import { publishSteps } from './publish-steps.js';
import type { StepRecord } from './run.js';

export type { StepRecord } from './run.js';
export { stagedManifest, stageProject, type Stage } from './stage.js';

export interface RehearsalResult {
  serviceId: string;
  steps: StepRecord[];
  /** The stand-in's own count of calls that spend the rate limit (the controllers' included). */
  counted: number;
}

/** Runs every step; throws StepFailed naming the step that went wrong. Cleans up either way. */
export async function rehearse(print: (line: string) => void = () => undefined): Promise<RehearsalResult> {
  const r: Rehearsal = await openRehearsal(print);
  try {
    await publishSteps(r);
    await operateSteps(r);
    await controlSteps(r);
    return { serviceId: r.serviceId, steps: r.records, counted: r.api.calls.filter((c) => c.limited).length };
  } finally {
    await closeRehearsal(r);
  }
}
