// A preview's facts: the room's own settings, with made-up figures where a visitor would see theirs.
import { describe, expect, it } from 'vitest';
import { previewFacts, MADE_UP } from '../../../src/core/answer/index.js';
import { parseConfig } from '../../../src/core/settings/index.js';
import type { PreviewClaims } from '../../../src/core/tokens/index.js';

const NOW_MS = Date.UTC(2026, 11, 7, 9);
const nowSec = NOW_MS / 1000;
const config = (settings: Record<string, string> = {}) => parseConfig((k) => settings[k] ?? null, 'shop').config;
const facts = (claims: Partial<PreviewClaims>, settings?: Record<string, string>) =>
  previewFacts(config(settings), { room: 'shop', page: 'keepwaiting', exp: nowSec + 60, ...claims }, NOW_MS, null);

describe('previewFacts', () => {
  it("gives a draw's waiting page a made-up wait, and a first-come one a made-up place", () => {
    expect(facts({})).toMatchObject({ page: 'keepwaiting', estimate: MADE_UP.estimate, place: null });
    expect(facts({ mode: 'fifo' })).toMatchObject({
      estimate: null,
      place: MADE_UP.place,
      placeQueue: 'fifo',
      queueingMethod: 'fifo',
    });
    // The room's own queueing method when the link names none.
    expect(facts({ page: 'startwaiting' }, { queueing_method: 'fifo' })).toMatchObject({ place: MADE_UP.place });
  });

  it("counts down to the room's sale when it is still to come, else to a made-up start", () => {
    const start = new Date(NOW_MS + 3_600_000).toISOString();
    expect(facts({ page: 'prequeue' }, { event_start: start })).toMatchObject({
      eventStart: start,
      startsInSeconds: 3600,
    });
    expect(facts({ page: 'prequeue' })).toMatchObject({ startsInSeconds: MADE_UP.startsInSeconds });
  });

  it("shows the deny page as closed for `closed`, with the room's message", () => {
    expect(facts({ page: 'closed' }, { message: 'Sold out' })).toMatchObject({
      page: 'deny',
      closed: true,
      message: 'Sold out',
      estimate: null,
    });
    expect(facts({ page: 'deny' })).toMatchObject({ page: 'deny', closed: false });
  });
});
