import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpClient } from '../../load/http.js';

describe("the load tool's connection pool", () => {
  let server: Server;
  let url: string;
  beforeAll(async () => {
    // Answers after 150 ms, as a busy room might.
    server = createServer((_req, res) => setTimeout(() => res.end('ok'), 150));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("reports how long each request waited for a free slot, so a run can tell its own delays from the room's", async () => {
    const client = new HttpClient(url, { header: 'x-load-visitor', concurrency: 1, timeoutMs: 5_000 });
    const request = { path: '/', visitor: 'v1', cookie: null, json: false };
    await Promise.all([client.send(request), client.send(request), client.send(request)]);
    const waits = client.takeSlotWaits().sort((a, b) => a - b);
    expect(waits).toHaveLength(3);
    expect(waits[0]).toBe(0);
    // The third waited for the two before it.
    expect(waits[2]).toBeGreaterThanOrEqual(250);
    expect(client.takeSlotWaits()).toEqual([]);
    client.close();
  });
});
