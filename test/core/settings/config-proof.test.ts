// The bot controls' settings (src/core/settings/config-proof.ts): defaults, ranges, and problems that name their key.
import { describe, expect, it } from 'vitest';
import { parseConfig, parseRoomConfig, problemMessage, shownProblem } from '../../../src/core/settings/index.js';

const parse = (values: Record<string, string>) =>
  parseConfig((k) => ({ allow_percentage: '10', ...values })[k] ?? null);

describe('proof and bot settings', () => {
  it('default to no proof, a 5 s difficulty, a fifth of the chance without one, and no infinite queue', () => {
    const { config, problems } = parse({});
    expect(problems).toEqual([]);
    expect(config).toMatchObject({
      proofOfWork: 'off',
      proofSeconds: 5,
      proofFreeShare: 0.2,
      botQueue: false,
      proofSchedule: [],
    });
  });

  it('read what an operator writes', () => {
    const { config, problems } = parse({
      proof_of_work: 'Auto',
      proof_seconds: '2.5',
      proof_free_share: '0.5',
      bot_queue: 'on',
      proof_schedule: '60=1.5, 30=3',
    });
    expect(problems).toEqual([]);
    expect(config).toMatchObject({
      proofOfWork: 'auto',
      proofSeconds: 2.5,
      proofFreeShare: 0.5,
      botQueue: true,
      proofSchedule: [
        { start: 30, seconds: 3 },
        { start: 60, seconds: 1.5 },
      ],
    });
  });

  it('refuse what cannot be used, each problem naming its key', () => {
    const { config, problems } = parse({
      proof_of_work: 'always',
      proof_seconds: '0',
      proof_free_share: '0',
      bot_queue: 'yes',
      proof_schedule: '30=3,x=1,60=61',
    });
    expect(config).toMatchObject({
      proofOfWork: 'off',
      proofSeconds: 5,
      proofFreeShare: 0.2,
      botQueue: false,
      proofSchedule: [{ start: 30, seconds: 3 }],
    });
    expect(problems.map((p) => p.key).sort()).toEqual([
      'bot_queue',
      'proof_free_share',
      'proof_of_work',
      'proof_schedule',
      'proof_schedule',
      'proof_seconds',
    ]);
    expect(problemMessage(problems.find((p) => p.key === 'proof_free_share')!)).toMatch(/cannot be 0.*JavaScript/);
    expect(parse({ proof_seconds: '61' }).problems.map((p) => p.key)).toEqual(['proof_seconds']);
  });

  it('clamp a difficulty longer than the wait period to it, saying so', () => {
    const { config, problems } = parse({ proof_of_work: 'fixed', proof_seconds: '20', wait_period_duration: '10' });
    expect(config.proofSeconds).toBe(10);
    expect(problems.map(shownProblem)).toEqual([
      expect.objectContaining({
        key: 'proof_seconds',
        message: expect.stringMatching(/wait_period_duration.*using 10/),
      }),
    ]);
  });

  it("take proof_schedule from the controller's live value", () => {
    const { config, problems } = parseRoomConfig('shop', {
      settings: JSON.stringify({ proof_of_work: 'auto' }),
      room: null,
      percentage: '10',
      live: JSON.stringify({ proof_schedule: '90=2' }),
    });
    expect(problems).toEqual([]);
    expect(config.proofSchedule).toEqual([{ start: 90, seconds: 2 }]);
  });
});
