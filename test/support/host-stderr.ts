// A setup file: when a test fails while a local host it started is running, the host's last stderr
// lines are printed with the failure. A guest that trapped, ran past its CPU time or lost its worker
// answers a bare 500 or 504; the host says why only on stderr, which the test otherwise never shows.
import { beforeEach } from 'vitest';
import { runningHosts } from '../../lib/host-process.js';

const SHOWN = 40;

beforeEach((context) => {
  context.onTestFailed(() => {
    for (const host of runningHosts()) {
      const lines = host.errors().slice(-SHOWN);
      if (lines.length === 0) continue;
      console.error(`the local host on ${host.url} said, last ${lines.length} stderr lines:\n${lines.join('\n')}`);
    }
  });
});
