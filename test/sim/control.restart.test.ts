// kill -9 in the middle of a flash crowd, in the simulator: the Controller is dropped at minute 6 and a
// new one starts from the state it last saved, its log source giving the last 30 s of lines again.
// What an operator would notice: admissions hold the target from the second minute after the restart.
import { beforeAll, describe, expect, it } from 'vitest';
import type { ScenarioFigures } from '../../sim/figures.js';
import { createControlModel } from '../../control/model/index.js';
import { briefSessions, run, scenario } from './support.js';

const MINUTE = 60_000;

describe('the controller killed and restarted mid-flash', () => {
  let f: ScenarioFigures;
  let messages: string[];
  beforeAll(async () => {
    const s = briefSessions({
      ...scenario('held-restart'),
      settings: { ...scenario('held-restart').settings, new_users_per_minute: '300' },
      durationMs: 20 * MINUTE,
    });
    const r = await run(s, 5000);
    f = r.figures;
    messages = r.result.control!.messages.map((m) => m.text);
  }, 180_000);

  it('restarts from its state file: replayed lines counted once, or the models relearn when they saved nothing', () => {
    expect(messages.find((m) => m.startsWith('kill -9'))).toMatch(
      /^kill -9; restarted from the state saved (\d|10|11) s before$/,
    );
    // Saved at most every 10 s (control/failover/state-file.ts SAVE_EVERY_MS): the lines since are replayed and skipped by POP.
    expect(messages.some((m) => /resuming from the state saved/.test(m))).toBe(true);
    if (typeof createControlModel().save === 'function') {
      // The models went on from their saved state: lines they had counted are skipped, said once.
      expect(messages.filter((m) => /counted before its restart/.test(m))).toHaveLength(1);
    } else {
      // A model that cannot save: the new one counts the replayed lines itself, and learns before it writes.
      expect(messages.filter((m) => /counted before its restart/.test(m))).toHaveLength(0);
      expect(messages).toContain('learning done: controlling');
    }
  });

  it('admits within 10% of new_users_per_minute in every judged minute from the second after the restart', () => {
    const after = f.control!.minutes.filter((m) => m.judged && m.minute >= 8);
    // The queue (5,000 visitors at 300 a minute, less those who give up) thins below a window's share at minute 11.
    expect(after.length).toBeGreaterThanOrEqual(3);
    for (const m of after) expect(Math.abs(m.error!), `minute ${m.minute}: ${m.admissions}`).toBeLessThanOrEqual(0.1);
  });
});
