// IP addresses as text and as bytes: canonical text for lookups, and the byte forms hostcalls use.
import { isIP } from 'node:net';

/** A socket address without the IPv4-mapped prefix a dual-stack socket reports. */
export function unmapIp(addr: string): string {
  return addr.replace(/^::ffff:/, '');
}

export function normalizeIp(addr: string): string {
  const bytes = ipToBytes(addr);
  return bytes ? bytesToIp(bytes) : addr;
}

export function ipToBytes(addr: string): number[] | undefined {
  const kind = isIP(addr);
  if (kind === 4) return addr.split('.').map(Number);
  if (kind !== 6) return undefined;
  let text = addr;
  let tail: number[] = [];
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4?.[1]) {
    tail = v4[1].split('.').map(Number);
    text = `${text.slice(0, -v4[1].length)}0:0`;
  }
  const [head = '', rest] = text.split('::');
  const parse = (s: string) => (s === '' ? [] : s.split(':').map((h) => parseInt(h, 16)));
  const hi = parse(head);
  const lo = rest === undefined ? [] : parse(rest);
  const words = [...hi, ...new Array(8 - hi.length - lo.length).fill(0), ...lo];
  const bytes = words.flatMap((w) => [(w >> 8) & 0xff, w & 0xff]);
  if (tail.length === 4) bytes.splice(12, 4, ...tail);
  return bytes;
}

export function bytesToIp(bytes: ArrayLike<number>): string {
  if (bytes.length === 4) return Array.from(bytes).join('.');
  const words: string[] = [];
  for (let i = 0; i < 16; i += 2) words.push((((bytes[i] ?? 0) << 8) | (bytes[i + 1] ?? 0)).toString(16));
  // Compress the longest run of zero words, as RFC 5952 asks.
  let best = -1;
  let bestLen = 0;
  for (let i = 0; i < 8; ) {
    if (words[i] !== '0') {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && words[j] === '0') j++;
    if (j - i > bestLen && j - i > 1) {
      best = i;
      bestLen = j - i;
    }
    i = j;
  }
  if (best < 0) return words.join(':');
  return `${words.slice(0, best).join(':')}::${words.slice(best + bestLen).join(':')}`;
}
