// Status codes and sentinels of the Compute ABI (Viceroy's typenames.witx, js-compute's fastly.h),
// and the one error a hostcall throws to answer the guest with a status.
export const OK = 0;
export const ERROR = 1;
export const INVAL = 2;
export const BADF = 3;
export const BUFLEN = 4;
export const UNSUPPORTED = 5;
export const HTTPINVALID = 7;
export const NONE = 10;
export const LIMITEXCEEDED = 13;

export const INVALID_HANDLE = 0xffff_fffe;

const NAMES: Record<number, string> = {
  [OK]: 'OK',
  [ERROR]: 'ERROR',
  [INVAL]: 'INVAL',
  [BADF]: 'BADF',
  [BUFLEN]: 'BUFLEN',
  [UNSUPPORTED]: 'UNSUPPORTED',
  [HTTPINVALID]: 'HTTPINVALID',
  [LIMITEXCEEDED]: 'LIMITEXCEEDED',
  [NONE]: 'NONE',
};

export function statusName(status: number): string {
  return NAMES[status] ?? `status ${status}`;
}

/**
 * A hostcall's failure: the status the guest sees and, for the operator, why (printed with `-v`,
 * as Viceroy logs the error behind a status). Thrown anywhere below a hostcall; the import wrapper
 * turns it into the return value.
 */
export class HostError {
  constructor(
    readonly status: number,
    readonly reason: string,
  ) {}

  toString(): string {
    return `${statusName(this.status)} (${this.reason})`;
  }
}
