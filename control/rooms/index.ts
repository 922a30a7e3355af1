// Every room the controller steers and its model, in the controller's thread (Rooms) or in the
// planner thread (WorkerRooms), both behind one RoomsPort. The door of control/rooms/.
export type { RoomsPort } from './port.js';
export { LanguageCounts, RECENT_MS } from './language-counts.js';
export { restoredModels, Rooms } from './room-set.js';
export { WorkerRooms } from './worker-rooms.js';
export * from './rooms-json.js';
