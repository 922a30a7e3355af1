// fastly_secret_store: stores from the manifest, secrets as handles whose bytes the guest reads.
import { NONE, OK } from '../guest/status.js';
import type { AbiModule } from './types.js';

export const secretStore: AbiModule = {
  open: (sb, p: number, l: number, out: number) => {
    const name = sb.mem.utf8(p, l);
    if (!Object.hasOwn(sb.manifest.secretStores, name)) return NONE;
    sb.mem.w32(out, sb.handles.add({ kind: 'secretstore', name }));
    return OK;
  },
  get: (sb, h: number, kp: number, kl: number, out: number) => {
    const store = sb.manifest.secretStores[sb.handles.get(h, 'secretstore').name] ?? {};
    const key = sb.mem.utf8(kp, kl);
    if (!Object.hasOwn(store, key)) return NONE;
    sb.mem.w32(out, sb.handles.add({ kind: 'secret', value: Buffer.from(store[key]!, 'utf8') }));
    return OK;
  },
  plaintext: (sb, h: number, buf: number, max: number, nw: number) =>
    sb.mem.writeOut(sb.handles.get(h, 'secret').value, buf, max, nw),
  from_bytes: (sb, p: number, l: number, out: number) => {
    sb.mem.w32(out, sb.handles.add({ kind: 'secret', value: sb.mem.copyIn(p, l) }));
    return OK;
  },
};
