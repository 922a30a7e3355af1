/// <reference types="@fastly/js-compute" />
// The room asks Fastly to reuse its sandboxes: one instance serves many requests, so the work a
// request would otherwise pay again (parsing the settings, importing keys, verifying a returning
// visitor's token) is done once per sandbox, in its memory (src/core/memory/). Every request still
// reads the stores, so a new setting or key takes effect on the next request. A sandbox is recycled
// after MAX_REQUESTS, which bounds what any one instance accumulates.
import { setReusableSandboxOptions } from 'fastly:experimental';
import { type SandboxMemory, sandboxMemory } from '../core/memory/index.js';

export const MAX_REQUESTS = 1000;

/** Build-time only: js-compute refuses the call while a request is handled. The sandbox's memory, for its requests. */
export function reuseSandboxes(): SandboxMemory {
  setReusableSandboxOptions({ maxRequests: MAX_REQUESTS });
  return sandboxMemory;
}
