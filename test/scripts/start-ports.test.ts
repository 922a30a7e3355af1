// One option moves every port npm start uses: the room's from --addr, the shop and the dashboard at
// fixed offsets below it, so the defaults stay 7676, 7070 and 7373.
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { freePort } from '../../lib/host-process.js';
import { freeAddr, portsInUse, startPorts } from '../../scripts/start-ports.js';

describe('npm start ports', () => {
  it('keeps the documented defaults and moves all three with --addr', () => {
    expect(startPorts('127.0.0.1:7676')).toEqual({ host: '127.0.0.1', room: 7676, origin: 7070, dashboard: 7373 });
    expect(startPorts('127.0.0.1:7677')).toEqual({ host: '127.0.0.1', room: 7677, origin: 7071, dashboard: 7374 });
    expect(() => startPorts('127.0.0.1:80')).toThrow(/from 607 to 65535/);
    expect(() => startPorts('7676')).toThrow(/HOST:PORT/);
  });

  it('names the port in use, what it was for, and an --addr where all three are free', async () => {
    let base = await freePort();
    if (base < 1000) base += 1000;
    const ports = startPorts(`127.0.0.1:${base}`);
    const squatter = createServer();
    const listened = await new Promise<boolean>((resolve) => {
      squatter.once('error', () => resolve(false));
      squatter.listen(ports.dashboard, '127.0.0.1', () => resolve(true));
    });
    try {
      if (!listened) return; // someone else holds it: the message below would name them instead
      const message = await portsInUse(ports, true);
      expect(message).toContain(`127.0.0.1:${ports.dashboard} (the dashboard)`);
      const next = await freeAddr(ports, true);
      expect(message).toContain(`npm start -- --addr ${next} --control`);
      // Without --control the dashboard's port is not needed.
      expect(await portsInUse(ports, false)).toBeNull();
    } finally {
      squatter.close();
    }
  });
});
