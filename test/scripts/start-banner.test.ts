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
    expect(text).toMatch(/http:\/\/127\.0\.0\.1:7676\/\s+room shop \(allow_percentage 50: each draw, every 10 s, lets 50% in\)/);
    expect(text).toMatch(/room checkout \(allow_percentage 50: each draw, every 5 s, lets 50% in; at most 30 admissions a minute at this POP; with --control, held to 30 new visitors a minute\)/);
    expect(text).toContain('npm run tune -- --room checkout allow_percentage=0');
  });

  it('shows the one room, default, of a store without routing', () => {
    const text = bannerText('127.0.0.1:7676', ports, true, { settings: JSON.stringify({ allow_percentage: '20' }) });
    expect(text).toMatch(/room default \(allow_percentage 20: each draw, every 30 s, lets 20% in\)/);
    expect(text).toContain('npm run tune -- new_users_per_minute=120');
  });
});
