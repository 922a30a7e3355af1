// The dashboard's server: the snapshot as JSON, and POST /api/read, the operator's "read the settings
// now" (JSON only, so a page elsewhere cannot post it from a plain form).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Server } from 'node:http';
import { startDashboard } from '../../../control/dashboard/server.js';
import type { DashboardSnapshot } from '../../../control/types.js';

let reads = 0;
let dash: { server: Server; url: string };
beforeAll(async () => {
  dash = await startDashboard(
    0,
    () => ({ holding: false }) as unknown as DashboardSnapshot,
    () => reads++,
  );
});
afterAll(() => void dash.server.close());

describe('the dashboard server', () => {
  it('reads the settings at the next tick when asked with POST /api/read', async () => {
    const res = await fetch(`${dash.url}api/read`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(res.status).toBe(202);
    expect(await res.json()).toEqual({ read: 'at the next tick' });
    expect(reads).toBe(1);
  });

  it('refuses a form post, which any page could send, and reads nothing', async () => {
    const res = await fetch(`${dash.url}api/read`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'a=1',
    });
    expect(res.status).toBe(415);
    expect(reads).toBe(1);
    expect((await fetch(`${dash.url}api/snapshot`, { method: 'DELETE' })).status).toBe(405);
    expect(await (await fetch(`${dash.url}api/snapshot`)).json()).toEqual({ holding: false });
  });
});
