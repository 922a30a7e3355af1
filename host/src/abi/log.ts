// fastly_log: named log endpoints, printed as Viceroy prints them (`name :: message` on stdout).
import { writeFd } from '../guest/blocking.js';
import { OK } from '../guest/status.js';
import type { AbiModule } from './types.js';

/** fastly_log handing each finished line to `print` (stdout in the host; a test collects them). */
export function logTo(print: (line: Uint8Array) => void): AbiModule {
  return {
    endpoint_get: (sb, p: number, l: number, out: number) => {
      sb.mem.w32(out, sb.handles.add({ kind: 'log', name: sb.mem.latin1(p, l) }));
      return OK;
    },
    write: (sb, h: number, p: number, l: number, nw: number) => {
      const ep = sb.handles.get(h, 'log');
      let msg = sb.mem.latin1(p, l);
      sb.mem.w32(nw, l);
      if (msg.endsWith('\n')) msg = msg.slice(0, -1);
      if (msg === '') return OK;
      // Latin-1 both ways keeps every byte; only newlines inside the message are escaped.
      print(Buffer.from(`${ep.name} :: ${msg.replace(/\n/g, '\\n')}\n`, 'latin1'));
      return OK;
    },
  };
}

export const log: AbiModule = logTo((line) => writeFd(1, line));
