/// <reference types="@fastly/js-compute" />
// The Fastly Compute entry point: wire the runtime into the pure room.
import { handle } from './core/handler.js';
import { warmUp } from './core/warm.js';
import { fastlyDeps } from './fastly/deps.js';
import { reuseSandboxes } from './fastly/reuse.js';

// Runs while js-compute builds the snapshot, so requests start with the room's code paths already
// compiled and its crypto already set up (src/core/warm.ts).
void warmUp();

// One instance serves many requests; what it may keep between them lives in `memory`, the sandbox's
// memory the warm-up above has filled (src/core/memory/).
const memory = reuseSandboxes();

addEventListener('fetch', (event) => event.respondWith(handle(event.request, fastlyDeps(event, memory))));
