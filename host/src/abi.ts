// Status codes and sentinels of the Compute ABI (Viceroy's typenames.witx, js-compute's fastly.h).
export const OK = 0;
export const ERROR = 1;
export const INVAL = 2;
export const BADF = 3;
export const BUFLEN = 4;
export const UNSUPPORTED = 5;
export const HTTPINVALID = 7;
export const NONE = 10;

export const INVALID_HANDLE = 0xffff_fffe;

/** A hostcall failure carrying the status the guest should see. */
export class HostError {
  constructor(readonly status: number) {}
}
