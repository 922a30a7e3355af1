// What a step of the decision is: a function of the visit that answers (the decision) or passes (null),
// leaving the visitor to the next step in the list (decide.ts).
import type { DecideResult } from './result.js';
import type { Visit } from './visit.js';

/** A step's answer: the decision, or null to pass the visit on. */
export type Answer = DecideResult | null;

export type Step = (visit: Visit) => Answer | Promise<Answer>;

/** What a step returns when the visit is not its business. */
export const PASS = null;
