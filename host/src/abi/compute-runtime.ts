// fastly_compute_runtime: the request's time and the sandbox's heap.
import { OK } from '../guest/status.js';
import type { AbiModule } from './types.js';

export const computeRuntime: AbiModule = {
  // Node 20 has no per-thread CPU clock, so wall time since the current request began stands in.
  get_vcpu_ms: (sb, out: number) => {
    const start = sb.current?.start ?? performance.now();
    sb.mem.w64(out, BigInt(Math.round(performance.now() - start)));
    return OK;
  },
  get_heap_mib: (sb, out: number) => {
    sb.mem.w32(out, Math.ceil(sb.mem.byteLength / (1 << 20)));
    return OK;
  },
};
