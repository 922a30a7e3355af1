// Linking (Viceroy's linking.rs): the import object for a guest module, above the ABI modules and
// WASI it draws from. Each function the module imports is looked up in the ABI table (or WASI) and
// wrapped once per worker, so a failure inside a hostcall becomes a status for the guest, never an
// exception through it.
import { ABI_MODULES, type HostFn, ProcExit, wasi } from '../abi/index.js';
import { ERROR, HostError, INVAL, UNSUPPORTED } from '../guest/status.js';
import { CpuLimitExit, type Execution } from '../guest/limits.js';
import { writeFd } from '../guest/blocking.js';
import type { Sandbox } from '../guest/sandbox.js';
import type { MainThread } from '../guest/transport.js';

// WASI errno for calls that are not provided at all, and for a bad pointer.
const WASI_ENOSYS = 52;
const WASI_EFAULT = 21;

/** One hostcall's calls in a request, their wall time, and the part of it spent blocked waiting for the main thread. */
export type HostcallTimes = [calls: number, ms: number, blockedMs: number];

export interface ImportOptions {
  /** The sandbox the call is for: the one running on this worker now. */
  sandbox(): Sandbox | null;
  io: MainThread;
  /** Prints each failed hostcall's status and reason (`-v`). */
  verbose: boolean;
  /** Collects calls, wall time and time blocked on the main thread per hostcall (COMPUTE_HOST_PROFILE=1). */
  profile: Map<string, HostcallTimes> | null;
}

/** `fn` as the guest calls it: a HostError becomes its status, a bad pointer INVAL (EFAULT for WASI). */
export function wrap(name: string, fn: HostFn, isWasi: boolean, opts: ImportOptions): (...args: never[]) => number {
  return (...args: never[]) => {
    const start = opts.profile ? performance.now() : 0;
    const blockedFrom = opts.profile ? opts.io.blockedMs : 0;
    // The execution the call began in (a next_request_wait ends it and begins another).
    let execution: Execution | undefined;
    try {
      const sb = opts.sandbox();
      if (!sb) throw new Error('no sandbox is running on this worker');
      // Past its CPU time the execution ends here, at the guest's next hostcall; what the host then
      // spends inside the call is not the guest's CPU time (limits.ts).
      sb.current?.execution.enterHostcall();
      execution = sb.current?.execution;
      return fn(sb, ...args);
    } catch (err) {
      if (err instanceof ProcExit || err instanceof CpuLimitExit) throw err;
      if (err instanceof HostError) {
        if (opts.verbose) writeFd(2, Buffer.from(`compute-host: ${name}: ${err.toString()}\n`));
        return err.status;
      }
      // A typed-array access out of the guest's memory: the guest passed a bad pointer.
      if (err instanceof RangeError) return isWasi ? WASI_EFAULT : INVAL;
      writeFd(2, Buffer.from(`compute-host: hostcall ${name} failed: ${(err as Error).stack ?? String(err)}\n`));
      return isWasi ? WASI_ENOSYS : ERROR;
    } finally {
      execution?.leaveHostcall();
      if (opts.profile) {
        const t = opts.profile.get(name) ?? [0, 0, 0];
        t[0]++;
        t[1] += performance.now() - start;
        t[2] += opts.io.blockedMs - blockedFrom;
        opts.profile.set(name, t);
      }
    }
  };
}

/**
 * The function a guest importing `module`.`name` is given: the ABI table's (or WASI's) hostcall,
 * wrapped, or one that answers "unsupported" and names the call once.
 */
export function hostImport(module: string, name: string, opts: ImportOptions): (...args: never[]) => number {
  const isWasi = module.startsWith('wasi_');
  const table = isWasi ? wasi : ABI_MODULES[module];
  const fullName = `${module}.${name}`;
  const impl = table && Object.hasOwn(table, name) ? table[name] : undefined;
  if (impl) return wrap(fullName, impl, isWasi, opts);
  return () => {
    opts.io.unsupported(fullName);
    return isWasi ? WASI_ENOSYS : UNSUPPORTED;
  };
}

export function buildImports(
  module: WebAssembly.Module,
  opts: ImportOptions,
): Record<string, Record<string, WebAssembly.ImportValue>> {
  const imports: Record<string, Record<string, WebAssembly.ImportValue>> = {};
  for (const imp of WebAssembly.Module.imports(module)) {
    if (imp.kind !== 'function') continue;
    (imports[imp.module] ??= {})[imp.name] = hostImport(imp.module, imp.name, opts);
  }
  return imports;
}
