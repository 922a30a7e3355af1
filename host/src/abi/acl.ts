// fastly_acl: `[local_server.acls]`, the longest matching prefix wins.
import type { AclEntry } from '../manifest/acls.js';
import { newBody } from '../guest/bodies.js';
import { INVAL, INVALID_HANDLE, NONE, OK } from '../guest/status.js';
import type { AbiModule } from './types.js';

// acl_error values (typenames.witx).
const ACL_OK = 1;
const ACL_NO_CONTENT = 2;

export function aclLookup(entries: AclEntry[], ip: ArrayLike<number>): { action: string; prefix: string } | null {
  let best: AclEntry | null = null;
  for (const e of entries) {
    if (e.network.length !== ip.length) continue;
    let match = true;
    for (let bit = 0; bit < e.bits; bit++) {
      const byte = bit >> 3;
      const mask = 0x80 >> (bit & 7);
      if (((e.network[byte] ?? 0) & mask) !== ((ip[byte] ?? 0) & mask)) {
        match = false;
        break;
      }
    }
    if (match && (!best || e.bits >= best.bits)) best = e;
  }
  return best && { action: best.action, prefix: best.prefix };
}

export const acl: AbiModule = {
  open: (sb, p: number, l: number, out: number) => {
    const name = sb.mem.utf8(p, l);
    if (!Object.hasOwn(sb.manifest.acls, name)) return NONE;
    sb.mem.w32(out, sb.handles.add({ kind: 'acl', name }));
    return OK;
  },
  lookup: (sb, h: number, ip: number, il: number, bodyOut: number, errOut: number) => {
    const name = sb.handles.get(h, 'acl').name;
    if (il !== 4 && il !== 16) return INVAL;
    const found = aclLookup(sb.manifest.acls[name] ?? [], sb.mem.copyIn(ip, il));
    if (!found) {
      sb.mem.w32(bodyOut, INVALID_HANDLE);
      sb.mem.w32(errOut, ACL_NO_CONTENT);
      return OK;
    }
    sb.mem.w32(bodyOut, sb.handles.add(newBody(null, [Buffer.from(JSON.stringify(found))])));
    sb.mem.w32(errOut, ACL_OK);
    return OK;
  },
};
