// fastly_async_io: waiting on several pending sends and body streams at once.
import type { RemoteItem } from '../protocol.js';
import { remoteItemOf } from './send.js';
import { BADF, OK } from '../guest/status.js';
import type { AbiModule } from './types.js';

const NO_INDEX = 0xffff_ffff;

export const asyncIo: AbiModule = {
  select: (sb, hs: number, n: number, timeoutMs: number, out: number) => {
    const items: RemoteItem[] = [];
    const index: number[] = [];
    for (let i = 0; i < n; i++) {
      const obj = sb.handles.peek(sb.mem.r32(hs + i * 4));
      if (!obj) return BADF;
      const remote = remoteItemOf(obj);
      if (!remote) {
        sb.mem.w32(out, i);
        return OK;
      }
      items.push(remote);
      index.push(i);
    }
    if (items.length === 0) {
      sb.mem.w32(out, NO_INDEX);
      return OK;
    }
    const idx = sb.io.call<number>({ op: 'select', items, timeoutMs });
    sb.mem.w32(out, idx < 0 ? NO_INDEX : index[idx]!);
    return OK;
  },
  is_ready: (sb, h: number, out: number) => {
    const obj = sb.handles.peek(h);
    if (!obj) return BADF;
    const remote = remoteItemOf(obj);
    sb.mem.w32(out, remote === null || sb.io.call<boolean>({ op: 'ready', item: remote }) ? 1 : 0);
    return OK;
  },
};
