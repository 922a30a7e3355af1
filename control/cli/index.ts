// The controller's command line, for the entry (control/cli.ts) and its tests.
export { main } from './main.js';
export { USAGE } from './options.js';
