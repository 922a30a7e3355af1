// IPv4 and IPv6 addresses and CIDR blocks, for the `ip` condition of routing rules (rule-parse.ts).
// Blocks are parsed once, with the routing value; a request's address once per request. No Node
// builtins: js-compute has none.

/** An address: IPv4 as one 32-bit number, IPv6 as eight 16-bit groups. */
export type IpAddress = { v: 4; n: number } | { v: 6; g: readonly number[] };

/** A block: the address with the bits past `bits` cleared, and the prefix length. */
export type Cidr = { v: 4; n: number; bits: number } | { v: 6; g: readonly number[]; bits: number };

const DECIMAL_OCTET = /^(?:0|[1-9][0-9]{0,2})$/;
const HEX_GROUP = /^[0-9a-fA-F]{1,4}$/;

function parseIpv4(text: string): number | null {
  const parts = text.split('.');
  if (parts.length !== 4) return null;
  let n = 0;
  for (const part of parts) {
    if (!DECIMAL_OCTET.test(part)) return null;
    const octet = Number(part);
    if (octet > 255) return null;
    n = n * 256 + octet;
  }
  return n;
}

function parseGroups(text: string): number[] | null {
  if (text === '') return [];
  const out: number[] = [];
  const parts = text.split(':');
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    if (i === parts.length - 1 && part.includes('.')) {
      const v4 = parseIpv4(part);
      if (v4 === null) return null;
      out.push(Math.floor(v4 / 65536), v4 % 65536);
    } else {
      if (!HEX_GROUP.test(part)) return null;
      out.push(parseInt(part, 16));
    }
  }
  return out;
}

function parseIpv6(text: string): number[] | null {
  const gap = text.indexOf('::');
  if (gap !== text.lastIndexOf('::')) return null;
  if (gap < 0) {
    const groups = parseGroups(text);
    return groups !== null && groups.length === 8 ? groups : null;
  }
  const head = parseGroups(text.slice(0, gap));
  const tail = parseGroups(text.slice(gap + 2));
  if (head === null || tail === null || head.length + tail.length > 7) return null;
  return [...head, ...new Array<number>(8 - head.length - tail.length).fill(0), ...tail];
}

/**
 * An IPv4 or IPv6 address in text, or null. An IPv4-mapped IPv6 address (`::ffff:192.0.2.1`) is the
 * IPv4 address it maps, so an IPv4 block holds it.
 */
export function parseIp(text: string): IpAddress | null {
  if (!text.includes(':')) {
    const n = parseIpv4(text);
    return n === null ? null : { v: 4, n };
  }
  const g = parseIpv6(text);
  if (g === null) return null;
  if (g[0] === 0 && g[1] === 0 && g[2] === 0 && g[3] === 0 && g[4] === 0 && g[5] === 0xffff)
    return { v: 4, n: g[6]! * 65536 + g[7]! };
  return { v: 6, g };
}

function maskV4(n: number, bits: number): number {
  // The top `bits` bits of n: n less its low part (numbers, not `>>>`: a /0 would shift by 32).
  return n - (n % 2 ** (32 - bits));
}

function maskV6(g: readonly number[], bits: number): number[] {
  return g.map((group, i) => {
    const left = bits - i * 16;
    if (left >= 16) return group;
    if (left <= 0) return 0;
    return group - (group % 2 ** (16 - left));
  });
}

/**
 * A block written `ADDRESS/BITS`, or a bare address (a block of one). Host bits set in the address
 * (`10.1.2.3/8`) are an error: such a block is most likely a typo for another one.
 */
export function parseCidr(text: string): Cidr | string {
  const slash = text.indexOf('/');
  const addrText = slash < 0 ? text : text.slice(0, slash);
  const addr = addrText.includes(':') ? parseIpv6(addrText) : parseIpv4(addrText);
  if (addr === null) return `"${addrText}" is not an IPv4 or IPv6 address`;
  const max = typeof addr === 'number' ? 32 : 128;
  let bits = max;
  if (slash >= 0) {
    const bitsText = text.slice(slash + 1);
    if (!DECIMAL_OCTET.test(bitsText) || Number(bitsText) > max)
      return `"/${bitsText}" is not a prefix length from 0 to ${max}`;
    bits = Number(bitsText);
  }
  if (typeof addr === 'number') {
    const n = maskV4(addr, bits);
    if (n !== addr) return `"${text}" has bits set past its /${bits}: write ${formatV4(n)}/${bits}`;
    return { v: 4, n, bits };
  }
  const g = maskV6(addr, bits);
  if (g.some((x, i) => x !== addr[i])) return `"${text}" has bits set past its /${bits}`;
  return { v: 6, g, bits };
}

function formatV4(n: number): string {
  return [24, 16, 8, 0].map((s) => Math.floor(n / 2 ** s) % 256).join('.');
}

/** Whether the block holds the address (an IPv4 block never holds an IPv6 address, nor the reverse). */
export function cidrHolds(block: Cidr, ip: IpAddress): boolean {
  if (block.v === 4) return ip.v === 4 && maskV4(ip.n, block.bits) === block.n;
  if (ip.v !== 6) return false;
  for (let i = 0; i < 8; i++) {
    const left = block.bits - i * 16;
    if (left <= 0) return true;
    const group = ip.g[i]!;
    const masked = left >= 16 ? group : group - (group % 2 ** (16 - left));
    if (masked !== block.g[i]) return false;
  }
  return true;
}

/** The block as text, as it is matched (`10.0.0.0/8`, `2001:db8:0:0:0:0:0:0/32`). */
export function cidrText(block: Cidr): string {
  if (block.v === 4) return `${formatV4(block.n)}/${block.bits}`;
  return `${block.g.map((x) => x.toString(16)).join(':')}/${block.bits}`;
}
