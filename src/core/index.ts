// The room's public surface: the handler for runtimes, the pieces for the simulator and tools.
export { handle, COMMAND_HEADER } from './handler.js';
export { decide, boundary, MAX_TOKEN_CHARS, type DecideInput, type DecideResult } from './decide.js';
export { parseConfig, describeProblem, settingsTable, type SettingInfo } from './config.js';
export { createKeyRing, decodeBase64, MIN_KEY_BYTES, type KeyRing } from './keys.js';
export { resolveIdentity, groupAddress, identityHash, type IdentityKind, type ResolvedIdentity } from './identity.js';
export { signToken, verifyToken, type TokenClaims, type Verified } from './token.js';
export { drawValue, drawWins, jitterSeconds, retryAfterSeconds } from './draw.js';
export { estimateWait, estimateFor, type WaitEstimate, type EstimateInput } from './estimate.js';
export { heldAnswer, type HeldAnswer, type HeldInput } from './held.js';
export { COOKIE_NAME, cookieValues, roomCookies, removeRoomCookie, cookieHeaderWithoutRoom, setRoomCookie, clearRoomCookie } from './cookies.js';
export { renderPage, type PageVars } from './pages.js';
export type * from './types.js';
