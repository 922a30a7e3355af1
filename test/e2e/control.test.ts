// The edge's side of admission control on the built Wasm: the decision line on the host's output,
// and the per-POP ceiling kept with the host's rate counter. (Admission once the ceiling has room
// needs ten seconds to pass: test/core/ceiling.test.ts checks it on a fake clock.)
import { expect, it } from 'vitest';
import { claimsOf, roomCookieValue } from '../../lib/mint.js';
import { mintToken, startRoom } from '../../lib/room-host.js';

const D = 30;

it("logs the POP, the window, the token's id and its successor's", async () => {
  const room = await startRoom({
    settings: { allow_percentage: '50', wait_period_duration: String(D), identity: 'header:x-visitor' },
  });
  try {
    const first = await fetch(`${room.url}/`, { headers: { 'x-visitor': 'a' } });
    const token = roomCookieValue(first)!;
    const line = JSON.parse((await room.waitForLog(/"newTid"/)).replace(/^[^{]*/, '')) as Record<string, unknown>;
    // The host names its POP as Viceroy does: XXX.
    expect(line).toMatchObject({
      wr: 1,
      pop: 'XXX',
      period: D,
      newDec: 'wait',
      newTid: token.split('.')[2]!.slice(0, 8),
    });
    expect(typeof line.nextTid).toBe('string');
    expect(line.win).toBe(Math.floor(Date.parse(String(line.ts)) / 1000 / D) * D);
    expect(line.newExp).toBe(claimsOf(token).exp);
  } finally {
    await room.stop();
  }
});

it('holds winners past the POP ceiling with a won cookie (the host keeps the rate counter)', async () => {
  // Everyone draws at once: chance 100 for every window, a ceiling of 0.1 a second = 1 per 10 s.
  const room = await startRoom({
    settings: {
      allow_percentage: '50',
      wait_period_duration: String(D),
      identity: 'header:x-visitor',
      pop_admissions_per_second: '0.1',
      allow_schedule: '0=100',
    },
  });
  try {
    // The three tokens are due in the window now open and stale from the next: when that comes in
    // under 5 s (a slow machine could cross it mid-test), start in the next window instead.
    const left = D * 1000 - (Date.now() % (D * 1000));
    if (left < 5_000) await new Promise((resolve) => setTimeout(resolve, left + 50));
    const answers: string[] = [];
    for (const who of ['a', 'b', 'c']) {
      // A token due now: minted for a window that is already open, as the room would have issued it.
      const exp = Math.floor(Date.now() / 1000 / D) * D - D;
      const token = await mintToken(room, { dec: 'wait', exp, identity: `header:${who}` });
      const res = await fetch(`${room.url}/`, {
        headers: { 'x-visitor': who, cookie: `waiting_room_default=${token}` },
      });
      answers.push(
        res.headers.get('x-echo') === '1'
          ? 'origin'
          : `held ${res.headers.get('retry-after')} ${claimsOf(roomCookieValue(res) ?? '..').dec}`,
      );
    }
    expect(answers[0]).toBe('origin');
    expect(answers.slice(1)).toEqual(['held 1 won', 'held 1 won']);
  } finally {
    await room.stop();
  }
});
