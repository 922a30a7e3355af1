// Who listens on a TCP port of this machine, for a message that says more than EADDRINUSE: on Linux,
// the listening socket's inode from /proc/net/tcp (and tcp6), then the process holding that socket
// among those whose file descriptors this user may read. Null when it cannot tell (another OS, another
// user's process).
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

export interface PortHolder {
  pid: number;
  /** Its command line, arguments joined by spaces. */
  command: string;
}

/** The inodes of the sockets listening on `port` (state 0A), from one /proc/net table. */
function listeningInodes(table: string, port: number): string[] {
  let text: string;
  try {
    text = readFileSync(table, 'utf8');
  } catch {
    return [];
  }
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  return text
    .split('\n')
    .slice(1)
    .map((line) => line.trim().split(/\s+/))
    .filter((f) => f.length > 9 && f[1]!.endsWith(`:${hexPort}`) && f[3] === '0A')
    .map((f) => f[9]!);
}

export function portHolder(port: number): PortHolder | null {
  const inodes = new Set([...listeningInodes('/proc/net/tcp', port), ...listeningInodes('/proc/net/tcp6', port)]);
  if (inodes.size === 0) return null;
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((e) => /^\d+$/.test(e));
  } catch {
    return null;
  }
  for (const pid of pids) {
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      let target: string;
      try {
        target = readlinkSync(`/proc/${pid}/fd/${fd}`);
      } catch {
        continue;
      }
      const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
      if (inode === undefined || !inodes.has(inode)) continue;
      let command = '?';
      try {
        command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
      } catch {
        // gone meanwhile: the pid still says who it was
      }
      return { pid: Number(pid), command };
    }
  }
  return null;
}

/** What to tell an operator whose dashboard cannot listen on `port` because it is taken. */
export function dashboardPortTaken(port: number, holder: PortHolder | null): string {
  const who =
    holder === null
      ? 'by a process this user cannot see'
      : /control\/cli/.test(holder.command)
        ? `by another controller, pid ${holder.pid} (${holder.command}), perhaps one left running when its npm was killed; stop it (kill ${holder.pid}) if it should not run`
        : `by pid ${holder.pid} (${holder.command})`;
  return `the dashboard cannot listen on 127.0.0.1:${port}: the port is in use, ${who}. Or give this controller another port: --dashboard-port ${port + 1} (0 picks a free one)`;
}
