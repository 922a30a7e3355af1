// The sandbox's memory: the one place the room keeps anything from one request to the next. Fastly
// reuses a sandbox for many requests (src/fastly/reuse.ts), and js-compute snapshots the module after
// the build-time warm-up (src/core/warm.ts), so whatever a table holds at build time every request
// starts with, and whatever a request adds the sandbox's next requests find.
//
// What may be kept, the same rule for every table: only what follows from values the request reads
// anyway, and each entry gives exactly what working it out again would give. Nothing about a visitor
// decides anything by being remembered. By what an entry follows from (MemoryKind):
// - `stored`: a store's values. The parsed settings are kept with the raw text they came from, an
//   imported key with its stored text, a verified token and an identity hash with the key object that
//   made them, and each is answered only while the request reads the same: `npm run tune` or
//   `npm run keys` takes effect on the very next request. Used only when the request's deps hand the
//   memory over (RoomDeps.memory: tests and the simulator work everything out afresh), and dropped
//   after an unexpected failure (forget).
// - `derived`: nothing but its key, which holds the whole input: a built-in message compiled, a
//   message worded with its arguments, a template parsed, a header's language chosen among a list.
//   Right in any sandbox at any time; bounded, since the keys come from requests and settings.
// - `service`: the service's version, whose stores, log endpoints, ACLs and counters are fixed until
//   a new version starts new sandboxes: their handles opened once, a diagnostic about them said once.
// docs/performance.md (The sandbox's memory) lists the tables and what each saves.
export { Bounded, PerObject } from './bounded.js';
export {
  type KeptTable,
  MAX_PARSES,
  MAX_REMEMBERED,
  type MemoryKind,
  SandboxMemory,
  sandboxMemory,
} from './sandbox-memory.js';
