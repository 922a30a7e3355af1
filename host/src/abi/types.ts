// The shape of one ABI module: its hostcalls by name, each given the calling sandbox first.
import type { Sandbox } from '../guest/sandbox.js';

export type HostFn = (sb: Sandbox, ...args: never[]) => number;
export type AbiModule = Record<string, HostFn>;
