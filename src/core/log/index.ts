export * from './log-line.js';
export * from './log-sample.js';
