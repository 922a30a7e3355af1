// An address written to the guest as 4 or 16 bytes, as the ABI's address calls answer.
import { ipToBytes } from '../ip.js';
import type { Sandbox } from '../guest/sandbox.js';
import { NONE, OK } from '../guest/status.js';

export function ipBytesOut(sb: Sandbox, ip: string | undefined, out: number, nwritten: number): number {
  const bytes = ip ? ipToBytes(ip) : undefined;
  if (!bytes) return NONE;
  sb.mem.set(Uint8Array.from(bytes), out);
  sb.mem.w32(nwritten, bytes.length);
  return OK;
}
