export * from './cidr.js';
export * from './route-match.js';
export * from './routing-read.js';
export * from './routing.js';
export * from './rule-parse.js';
