import { describe, expect, it } from 'vitest';
import { cidrHolds, cidrText, parseCidr, parseIp, type Cidr } from '../../../src/core/routing/cidr.js';

function block(text: string): Cidr {
  const b = parseCidr(text);
  if (typeof b === 'string') throw new Error(b);
  return b;
}

function holds(cidr: string, ip: string): boolean {
  const addr = parseIp(ip);
  if (addr === null) throw new Error(`bad ip ${ip}`);
  return cidrHolds(block(cidr), addr);
}

describe('IPv4 blocks', () => {
  it('hold the addresses under their prefix and no others', () => {
    expect(holds('10.0.0.0/8', '10.255.1.2')).toBe(true);
    expect(holds('10.0.0.0/8', '11.0.0.1')).toBe(false);
    expect(holds('192.0.2.128/25', '192.0.2.200')).toBe(true);
    expect(holds('192.0.2.128/25', '192.0.2.127')).toBe(false);
    expect(holds('0.0.0.0/0', '203.0.113.9')).toBe(true);
    expect(holds('255.255.255.255/32', '255.255.255.255')).toBe(true);
  });

  it('take a bare address as a block of one', () => {
    expect(holds('198.51.100.7', '198.51.100.7')).toBe(true);
    expect(holds('198.51.100.7', '198.51.100.8')).toBe(false);
  });

  it('refuse host bits past the prefix, bad prefixes and bad addresses, saying what is wrong', () => {
    expect(parseCidr('10.1.2.3/8')).toMatch(/bits set past its \/8: write 10\.0\.0\.0\/8/);
    expect(parseCidr('10.0.0.0/33')).toMatch(/prefix length from 0 to 32/);
    expect(parseCidr('10.0.0.0/')).toMatch(/prefix length/);
    expect(parseCidr('256.0.0.0/8')).toMatch(/not an IPv4 or IPv6 address/);
    expect(parseCidr('10.0.0/8')).toMatch(/not an IPv4/);
    expect(parseCidr('010.0.0.0/8')).toMatch(/not an IPv4/);
  });
});

describe('IPv6 blocks', () => {
  it('hold the addresses under their prefix, with :: anywhere', () => {
    expect(holds('2001:db8::/32', '2001:db8:1234::1')).toBe(true);
    expect(holds('2001:db8::/32', '2001:db9::1')).toBe(false);
    expect(holds('2001:db8:abcd:12::/63', '2001:db8:abcd:13:ffff::')).toBe(true);
    expect(holds('2001:db8:abcd:12::/63', '2001:db8:abcd:14::')).toBe(false);
    expect(holds('::/0', '2001:db8::1')).toBe(true);
    expect(holds('::1', '0:0:0:0:0:0:0:1')).toBe(true);
    expect(holds('fe80::/10', 'FE80::ABCD')).toBe(true);
  });

  it('never mix families, except an IPv4-mapped address, which is the IPv4 address', () => {
    expect(holds('::/0', '192.0.2.1')).toBe(false);
    expect(holds('0.0.0.0/0', '2001:db8::1')).toBe(false);
    expect(holds('192.0.2.0/24', '::ffff:192.0.2.10')).toBe(true);
  });

  it('refuse malformed addresses', () => {
    for (const bad of [
      '2001:db8::1::2',
      '2001:db8:::1',
      '1:2:3:4:5:6:7:8:9',
      '12345::',
      '2001:db8::/129',
      'fe80::1%eth0',
      'g::1',
      ':1:2:3:4:5:6:7',
    ]) {
      expect(typeof parseCidr(bad), bad).toBe('string');
    }
    expect(parseIp('not an ip')).toBeNull();
    expect(parseIp('1.2.3')).toBeNull();
  });

  it('show as the block matched', () => {
    expect(cidrText(block('2001:db8::/32'))).toBe('2001:db8:0:0:0:0:0:0/32');
    expect(cidrText(block('10.0.0.0/8'))).toBe('10.0.0.0/8');
  });
});
