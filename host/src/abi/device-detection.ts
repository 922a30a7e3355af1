// fastly_device_detection: the data `[local_server.device_detection]` gives this exact user agent,
// as Viceroy answers; `none` for any other (and for all without the section).
import { NONE } from '../guest/status.js';
import type { AbiModule } from './types.js';

export const deviceDetection: AbiModule = {
  lookup: (sb, p: number, l: number, buf: number, max: number, nw: number) => {
    const agents = sb.manifest.deviceDetection;
    const ua = sb.mem.utf8(p, l);
    if (!Object.hasOwn(agents, ua)) return NONE;
    return sb.mem.writeOut(Buffer.from(JSON.stringify(agents[ua])), buf, max, nw);
  },
};
