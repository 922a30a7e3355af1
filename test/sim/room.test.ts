import { describe, expect, it } from 'vitest';
import { createRoom } from '../../sim/room.js';

describe('a simulated room of several POPs', () => {
  const pops = [
    { name: 'NEAR', propagationMs: 0 },
    { name: 'FAR', propagationMs: 10_000 },
  ];

  it('shows each POP a published setting only after that POP\'s delay', async () => {
    const room = createRoom({ allow_percentage: '100' }, 's', { pops });
    room.publish({ allow_percentage: '0' }, 1_000);
    expect((await room.request('10.0.0.1', [], 2_000, 0)).outcome).toBe('deny');
    expect((await room.request('10.0.0.2', [], 2_000, 1)).outcome).toBe('origin');
    expect((await room.request('10.0.0.3', [], 11_000, 1)).outcome).toBe('deny');
    expect(room.central().allow_percentage).toBe('0');
  });

  it('removes a key published empty, and refuses a value the room would not parse', () => {
    const room = createRoom({ allow_percentage: '50', new_users_per_minute: '60' }, 's', { pops });
    room.publish({ new_users_per_minute: '' }, 0);
    expect(room.central().new_users_per_minute).toBeUndefined();
    expect(() => room.publish({ allow_percentage: 'lots' }, 0)).toThrow(/allow_percentage/);
  });

  it('logs a decision line per request while log_endpoint is set, naming the POP', async () => {
    const lines: { pop: number; text: string }[] = [];
    const room = createRoom({ allow_percentage: '50', log_endpoint: 'controller' }, 's', { pops, onLine: (pop, text) => lines.push({ pop, text }) });
    await room.request('10.0.0.1', [], 0, 1);
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!.text)).toMatchObject({ wr: 1, pop: 'FAR', newDec: 'wait' });
    // A new wait token's successor is signed for the controller, so its id is in the line.
    expect(JSON.parse(lines[0]!.text).nextTid).toMatch(/^[\w-]{8}$/);
  });
});
