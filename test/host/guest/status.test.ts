// The status codes a hostcall answers: the numbers of the ABI's fastly_status enum, which a guest
// compares against its own copy of them.
import { describe, expect, it } from 'vitest';
import * as status from '../../../host/src/guest/status.js';

describe('the status codes', () => {
  it("are fastly_status's numbers, in the order the ABI lists them", () => {
    const { OK, ERROR, INVAL, BADF, BUFLEN, UNSUPPORTED, HTTPINVALID, NONE, LIMITEXCEEDED } = status;
    expect({ OK, ERROR, INVAL, BADF, BUFLEN, UNSUPPORTED, HTTPINVALID, NONE, LIMITEXCEEDED }).toEqual({
      OK: 0,
      ERROR: 1,
      INVAL: 2,
      BADF: 3,
      BUFLEN: 4,
      UNSUPPORTED: 5,
      // 6 is badalign
      HTTPINVALID: 7,
      // 8 httpuser, 9 httpincomplete
      NONE: 10,
      // 11 httpheadtoolarge, 12 httpinvalidstatus
      LIMITEXCEEDED: 13,
    });
  });

  it('mark an absent handle as u32::MAX - 1, as the ABI does', () => {
    expect(status.INVALID_HANDLE).toBe(0xffff_ffff - 1);
  });

  it('have names for the operator, and a number for any other', () => {
    expect(status.statusName(status.BUFLEN)).toBe('BUFLEN');
    expect(status.statusName(status.LIMITEXCEEDED)).toBe('LIMITEXCEEDED');
    expect(status.statusName(42)).toBe('status 42');
  });
});

describe('HostError', () => {
  it('carries the status the guest gets and the reason the operator reads', () => {
    const err = new status.HostError(status.INVAL, 'no backend named "orgin"');
    expect(err.status).toBe(status.INVAL);
    expect(String(err)).toBe('INVAL (no backend named "orgin")');
  });
});
