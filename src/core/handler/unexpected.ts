// A bug met while routing, deciding or previewing: said to the operator with its stack, and a reused sandbox drops
// what it kept, in case what it kept is what failed. The caller then keeps the visitor waiting.
import type { RoomDeps } from '../types.js';

export function unexpectedFailure(
  deps: RoomDeps,
  doing: 'routing' | 'deciding' | 'previewing' | 'answering a status',
  error: unknown,
): void {
  deps.memory?.forget();
  deps.diag(
    `waiting room: unexpected failure while ${doing} (${error instanceof Error ? (error.stack ?? error.message) : String(error)})`,
  );
}
