// `npm run control`: holds the origin to new_users_per_minute (and total_active_users) by reading the
// room's decision lines and publishing each window's chance (docs/control/). Its options, and what
// each does, are in control/cli/options.ts (`npm run control -- --help`); the process is put together
// in control/cli/main.ts.
import { isMain, runTool } from '../lib/cli.js';
import { main, USAGE } from './cli/index.js';

if (isMain(import.meta.url)) runTool('npm run control', USAGE, (argv) => main(argv, { guard: true }));
