// The room's public status (docs/status.md): its path and query, the status worked out from a room's
// settings, and its JSON. The handler's status link (handler/status.ts) reads the store for it.
export { roomStatus, type RoomStatus, type StatusReason, type StatusState } from './room-status.js';
export { errorJson, type StatusError, statusJson, unknownJson } from './status-body.js';
export { readStatusQuery, STATUS_PATH, type StatusQuery } from './status-query.js';
