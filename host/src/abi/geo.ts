// fastly_geo: `[local_server.geolocation]`, with Viceroy's default data for loopback addresses.
import { bytesToIp } from '../ip.js';
import type { WorkerManifest } from '../config.js';
import { geoDefaultLoopback } from './geo-default.js';
import { INVAL, NONE } from '../guest/status.js';
import type { AbiModule } from './types.js';

/** `bytes` is a 4- or 16-byte address; bytesToIp gives the canonical text the manifest is keyed by. */
export function geoLookup(manifest: WorkerManifest, bytes: Uint8Array): Record<string, unknown> | null {
  const found = manifest.geolocation.addresses[bytesToIp(bytes)];
  if (found) return found;
  const loopback = bytes.length === 4 ? bytes[0] === 127 : bytes.every((b, i) => b === (i === 15 ? 1 : 0));
  if (loopback && manifest.geolocation.useDefaultLoopback) return geoDefaultLoopback;
  return null;
}

export const geo: AbiModule = {
  lookup: (sb, ap: number, al: number, buf: number, max: number, nw: number) => {
    if (al !== 4 && al !== 16) return INVAL;
    const data = geoLookup(sb.manifest, sb.mem.copyIn(ap, al));
    if (!data) return NONE;
    return sb.mem.writeOut(Buffer.from(JSON.stringify(data)), buf, max, nw);
  },
};
