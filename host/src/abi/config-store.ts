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
    // Fastly allows 32 lookups per execution (guest/limits.ts). A call answered BUFLEN is retried by
    // the guest with a bigger buffer: one lookup, counted on the call that reads the value.
    if (!Object.hasOwn(store, key)) {
      sb.current?.execution.configLookup();
      return NONE;
    }
    const value = Buffer.from(store[key]!, 'utf8');
    if (value.length <= max) sb.current?.execution.configLookup();
    return sb.mem.writeOut(value, buf, max, nw);
  },
};
