// The process tree of a test's children, read from /proc (Linux): what a test of stopping checks is
// gone, and a test that must leave nothing running kills.
import { readdirSync, readFileSync } from 'node:fs';

/** Every process below `pid`, children first found first (a guard in its own group included). */
export function descendants(pid: number): number[] {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // gone meanwhile
    }
  }
  const found: number[] = [];
  const walk = (p: number): void => {
    for (const [child, parent] of parents) if (parent === p) found.push(child), walk(child);
  };
  walk(pid);
  return found;
}

/** Alive and not a zombie. */
export function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}
