// The lanes' settings (src/core/settings/config-lanes.ts): `lanes` taken whole or refused with a
// problem that names its key (and the room then has no lanes), `lane_names` entry by entry, and the
// controller's `lane_schedule` by lane and window.
import { describe, expect, it } from 'vitest';
import { parseConfig, problemText } from '../../../src/core/settings/index.js';

const parse = (values: Record<string, string>) => {
  const { config, problems } = parseConfig((k) => ({ allow_percentage: '50', ...values })[k] ?? null);
  return { config, problems: problems.map(problemText) };
};

describe('lanes', () => {
  it('declares each lane with its share and its name, the id when none is given', () => {
    const { config, problems } = parse({ lanes: 'members:30, presale:20.5', lane_names: 'members:Club members' });
    expect(problems).toEqual([]);
    expect(config.lanes).toEqual([
      { id: 'members', share: 30, name: 'Club members' },
      { id: 'presale', share: 20.5, name: 'presale' },
    ]);
  });

  it.each([
    ['members', /lanes: each entry must be LANE:SHARE/],
    ['Members:30', /lanes: each entry must be LANE:SHARE/],
    ['general:30', /lanes: "general" is the lane of everyone else/],
    ['members:0', /lanes: the share of members must be above 0/],
    ['members:30,members:20', /lanes: names members twice/],
    ['a:60,b:50', /lanes: the shares add up to 110, over 100/],
    ['a:1,b:1,c:1,d:1,e:1,f:1', /lanes: declares 6 lanes; at most 5/],
  ])('refuses %j whole, naming the key: no lanes', (value, why) => {
    const { config, problems } = parse({ lanes: value });
    expect(config.lanes).toEqual([]);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(why);
    expect(problems[0]).toContain('no lanes: every visitor waits in the general lane');
  });

  it('refuses lanes with the first-come queue and with a pre-queue, saying why', () => {
    const fifo = parse({ lanes: 'members:30', queueing_method: 'fifo' });
    expect(fifo.config.lanes).toEqual([]);
    expect(fifo.problems[0]).toMatch(/lanes: cannot be used with queueing_method=fifo/);
    const prequeue = parse({
      lanes: 'members:30',
      event_prequeue_start: '2026-12-01T09:00:00Z',
      event_start: '2026-12-01T10:00:00Z',
    });
    expect(prequeue.config.lanes).toEqual([]);
    expect(prequeue.problems[0]).toMatch(/lanes: cannot be used with event_prequeue_start/);
    // An event without a pre-queue draws its latecomers, lanes and all.
    expect(parse({ lanes: 'members:30', event_start: '2026-12-01T10:00:00Z' }).config.lanes).toHaveLength(1);
  });

  it('skips a bad name, keeping the others', () => {
    const { config, problems } = parse({
      lanes: 'members:30,presale:20',
      lane_names: 'members:Club: gold,presale:Presale',
    });
    expect(config.lanes.map((l) => l.name)).toEqual(['members', 'Presale']);
    expect(problems).toEqual([expect.stringMatching(/^lane_names: each entry must be LANE:NAME/)]);
  });

  it("reads the controller's lane_schedule by lane, for the declared lanes and the general one only", () => {
    const { config, problems } = parse({
      lanes: 'members:30',
      lane_schedule: 'members@120=40,general@120=5,members@90=50,gone@90=1,members@soon=3',
    });
    expect(config.laneSchedule).toEqual({
      members: [
        { start: 90, pct: 50 },
        { start: 120, pct: 40 },
      ],
      general: [{ start: 120, pct: 5 }],
    });
    expect(problems).toEqual([expect.stringMatching(/^lane_schedule: each entry must be LANE@START=PCT/)]);
  });
});
