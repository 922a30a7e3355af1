// Where decision lines come from, and how a line is read: the door of control/sources/ for the rest of the controller.
export { fileSource } from './file-source.js';
export { CHALLENGE_PATH, type HttpsSource, httpsSource } from './https-source.js';
export { type LineVerdict, parseLogLine } from './log-line.js';
export { type LogTailOptions, logTailSource } from './log-tail-source.js';
export type { Source } from './source.js';
export { stdinSource } from './stdin-source.js';
