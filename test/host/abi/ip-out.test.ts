// Addresses handed to the guest as 4 or 16 bytes with their count, as the address calls answer.
import { describe, expect, it } from 'vitest';
import { ipBytesOut } from '../../../host/src/abi/ip-out.js';
import { INVAL, NONE, OK } from '../../../host/src/guest/status.js';
import { Guest, OUTSIDE, UNTOUCHED } from './sandbox-fixture.js';

function written(ip: string | undefined): { status: number; bytes: number[]; count: number } {
  const g = new Guest();
  const out = g.alloc(16);
  const nw = g.alloc(4);
  const status = g.run((sb) => ipBytesOut(sb, ip, out, nw));
  return { status, bytes: [...g.read(out, 16)], count: g.u32(nw) };
}

const rest = (n: number) => new Array<number>(n).fill(0xee);

describe('ipBytesOut', () => {
  it('writes an IPv4 address as 4 bytes and leaves the rest of the buffer alone', () => {
    expect(written('192.0.2.10')).toEqual({ status: OK, bytes: [192, 0, 2, 10, ...rest(12)], count: 4 });
  });

  it('writes an IPv6 address as 16 bytes, an IPv4-mapped one included', () => {
    expect(written('2001:db8::1')).toEqual({
      status: OK,
      bytes: [0x20, 0x01, 0x0d, 0xb8, ...new Array<number>(11).fill(0), 1],
      count: 16,
    });
    expect(written('::ffff:192.0.2.1').bytes.slice(10)).toEqual([0xff, 0xff, 192, 0, 2, 1]);
  });

  it('answers NONE, writing nothing, for no address or text that is not one', () => {
    for (const ip of [undefined, '', 'localhost', '999.0.0.1'])
      expect(written(ip), String(ip)).toEqual({ status: NONE, bytes: rest(16), count: UNTOUCHED });
  });

  it('answers INVAL when the guest hands a buffer or count slot outside its memory', () => {
    const g = new Guest();
    expect(g.run((sb) => ipBytesOut(sb, '192.0.2.1', OUTSIDE, g.alloc(4)))).toBe(INVAL);
    expect(g.run((sb) => ipBytesOut(sb, '192.0.2.1', g.alloc(16), OUTSIDE))).toBe(INVAL);
  });
});
