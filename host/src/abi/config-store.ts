// fastly_config_store and fastly_dictionary: Viceroy treats `dictionaries` as another name for
// `config_stores`, so either module opens any of them.
import { BADF, NONE, OK } from '../guest/status.js';
import type { AbiModule } from './types.js';

export const configStore: AbiModule = {
  open: (sb, p: number, l: number, out: number) => {
    const name = sb.mem.utf8(p, l);
    if (!Object.hasOwn(sb.manifest.configStores, name)) return BADF;
    sb.mem.w32(out, sb.handles.add({ kind: 'config', name }));
    return OK;
  },
  get: (sb, h: number, kp: number, kl: number, buf: number, max: number, nw: number) => {
    const store = sb.manifest.configStores[sb.handles.get(h, 'config').name] ?? {};
    const key = sb.mem.utf8(kp, kl);
    if (!Object.hasOwn(store, key)) return NONE;
    return sb.mem.writeOut(Buffer.from(store[key]!, 'utf8'), buf, max, nw);
  },
};
