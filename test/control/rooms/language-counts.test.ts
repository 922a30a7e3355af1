// The languages of each room's own answers, as the dashboard shows them: per room, over the last ten
// minutes and since the start, most read first, bounded against a forged log.
import { describe, expect, it } from 'vitest';
import { LanguageCounts, RECENT_MS } from '../../../control/rooms/index.js';
import { parsedLine } from '../lines.js';

const T0 = Date.parse('2026-12-07T10:00:00Z');
const page = (tsMs: number, lang: string | undefined, room: string | null = 'shop') =>
  parsedLine({ tsMs, reason: 'lose', room, ...(lang === undefined ? {} : { lang }) });

describe('LanguageCounts', () => {
  it("counts each room's answers by language, most read in the last ten minutes first", () => {
    const c = new LanguageCounts();
    for (let i = 0; i < 5; i++) c.observe(page(T0 + i * 1000, 'de-DE'));
    for (let i = 0; i < 3; i++) c.observe(page(T0 + i * 1000, 'th-TH'));
    c.observe(page(T0, 'hi-IN', 'checkout'));
    // The origin's answers name no language; a line no room decided counts for none.
    c.observe(page(T0, undefined));
    c.observe(page(T0, 'fr-FR', null));
    expect(c.view('shop', T0 + 5000)).toEqual([
      { tag: 'de-DE', recent: 5, session: 5 },
      { tag: 'th-TH', recent: 3, session: 3 },
    ]);
    expect(c.view('checkout', T0 + 5000)).toEqual([{ tag: 'hi-IN', recent: 1, session: 1 }]);
    expect(c.view('nowhere', T0)).toEqual([]);
  });

  it('forgets the recent counts after ten minutes and keeps the session', () => {
    const c = new LanguageCounts();
    for (let i = 0; i < 4; i++) c.observe(page(T0, 'de-DE'));
    const later = T0 + RECENT_MS + 120_000;
    c.observe(page(later, 'vi-VN'));
    expect(c.view('shop', later)).toEqual([
      { tag: 'vi-VN', recent: 1, session: 1 },
      { tag: 'de-DE', recent: 0, session: 4 },
    ]);
  });

  it('keeps a forged log to a bounded table: tags past 64 a room count as other', () => {
    const c = new LanguageCounts();
    for (let i = 0; i < 200; i++) c.observe(page(T0, `x${i}`));
    const rows = c.view('shop', T0);
    expect(rows).toHaveLength(65);
    expect(rows.find((r) => r.tag === 'other')).toEqual({ tag: 'other', recent: 136, session: 136 });
  });
});
