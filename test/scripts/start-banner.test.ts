import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bannerText } from '../../scripts/start-banner.js';
import { startPorts } from '../../scripts/start-ports.js';
import { repoRoot } from '../../lib/paths.js';

const demo = JSON.parse(readFileSync(join(repoRoot, 'local', 'config.example.json'), 'utf8')) as Record<string, string>;
const ports = startPorts('127.0.0.1:7676');

describe("npm start's banner", () => {
  it('names each room of the demo with its chance and window, as the room reads them', () => {
    const text = bannerText('127.0.0.1:7676', ports, false, demo);
    expect(text).toMatch(
      /http:\/\/127\.0\.0\.1:7676\/\s+room shop \(allow_percentage 50: each draw, every 10 s, lets 50% in\)/,
    );
    expect(text).toMatch(
      /room checkout \(allow_percentage 50: each draw, every 5 s, lets 50% in; at most 30 admissions a minute at this POP; with --control, held to 30 new visitors a minute\)/,
    );
    expect(text).toContain('npm run tune -- --room checkout allow_percentage=0');
  });

  it('shows the one room, default, of a store without routing', () => {
    const text = bannerText('127.0.0.1:7676', ports, true, { settings: JSON.stringify({ allow_percentage: '20' }) });
    expect(text).toMatch(/room default \(allow_percentage 20: each draw, every 30 s, lets 20% in\)/);
    expect(text).toContain('npm run tune -- new_users_per_minute=120');
  });
});

describe("npm start's banner under a controller's schedule", () => {
  const now = 1_796_458_000;
  // What a stopped controller leaves: a schedule an hour old whose last entry (2.56%) is its fallback.
  const live = JSON.stringify({ allow_schedule: `${now - 3600}=2.388404,${now - 3000}=2.561533` });
  const store = { ...demo, 'room.shop.live': live };

  it('says the chance the draws use now and where it comes from, not allow_percentage alone', () => {
    const text = bannerText('127.0.0.1:7676', ports, false, store, now);
    expect(text).toMatch(
      /room shop \(each draw, every 10 s, lets 2\.56% in: the last entry of a controller's allow_schedule, its fallback, .*allow_percentage 50 is not used/,
    );
    expect(text).not.toMatch(/room shop \(allow_percentage 50: each draw, every 10 s, lets 50% in/);
    // The room without a schedule still reads allow_percentage.
    expect(text).toMatch(/room checkout \(allow_percentage 50: each draw, every 5 s, lets 50% in/);
  });

  it('names a schedule a controller publishes now', () => {
    const running = {
      ...demo,
      'room.shop.live': JSON.stringify({ allow_schedule: `${now - 20}=12.5,${now + 600}=3` }),
    };
    expect(bannerText('127.0.0.1:7676', ports, true, running, now)).toMatch(
      /room shop \(each draw, every 10 s, lets 12\.5% in: the controller's allow_schedule/,
    );
  });

  it("carries what npm start did with a stopped controller's schedules", () => {
    const text = bannerText('127.0.0.1:7676', ports, false, demo, now, [
      'cleared what a stopped controller left (pid 210, ...)',
    ]);
    expect(text).toContain('cleared what a stopped controller left (pid 210, ...)');
  });
});

describe("npm start -- --control's journal", () => {
  it('is named in the banner, with the report command that reads it', () => {
    const text = bannerText('127.0.0.1:7676', ports, true, demo, 1_796_458_000, [], 'local/journal.jsonl');
    expect(text).toContain('npm run report -- ROOM.LOG --journal local/journal.jsonl');
    expect(bannerText('127.0.0.1:7676', ports, false, demo)).not.toContain('journal');
  });
});

describe("npm start's banner when something decides before the draw", () => {
  const now = 1_796_458_000;
  const at = (sec: number) => new Date(sec * 1000).toISOString().replace(/\.\d+Z$/, 'Z');
  const withShop = (own: Record<string, string>) => ({ ...demo, 'room.shop': JSON.stringify(own) });

  it("says a scheduled sale's pre-queue is open and when the sale starts, before the chance that follows it", () => {
    const text = bannerText(
      '127.0.0.1:7676',
      ports,
      false,
      withShop({ event_prequeue_start: at(now - 60), event_start: at(now + 180) }),
      now,
    );
    const start = new Date((now + 180) * 1000).toISOString().slice(11, 19);
    expect(text).toMatch(
      new RegExp(
        `room shop \\(a sale starts ${start} UTC: until then new visitors get the countdown page.*; after the pre-queue, allow_percentage 50`,
      ),
    );
    expect(text).toMatch(/room checkout \(allow_percentage 50/);
  });

  it('says when the pre-queue opens, before it does', () => {
    const text = bannerText(
      '127.0.0.1:7676',
      ports,
      false,
      withShop({ event_prequeue_start: at(now + 60), event_start: at(now + 180) }),
      now,
    );
    expect(text).toMatch(
      /room shop \(a sale starts \d\d:\d\d:\d\d UTC, its pre-queue opens \d\d:\d\d:\d\d UTC; until then, allow_percentage 50/,
    );
  });

  it('says nothing of a sale once it has started', () => {
    const text = bannerText('127.0.0.1:7676', ports, false, withShop({ event_start: at(now - 10) }), now);
    expect(text).toMatch(/room shop \(allow_percentage 50: each draw/);
  });

  it('says a paused or switched-off room is so', () => {
    expect(bannerText('127.0.0.1:7676', ports, false, withShop({ queue_all: 'true' }), now)).toMatch(
      /room shop \(paused \(queue_all\): nobody new is let in/,
    );
    expect(bannerText('127.0.0.1:7676', ports, false, withShop({ enabled: 'false' }), now)).toMatch(
      /room shop \(switched off \(enabled=false\): every request goes to the origin/,
    );
  });
});
