import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ensureLogEndpoint } from '../../scripts/start-control.js';

const dir = mkdtempSync(join(tmpdir(), 'wr-start-control-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('npm start -- --control: log_endpoint', () => {
  it('sets log_endpoint=stdout when unset, keeping every other setting', async () => {
    const file = join(dir, 'unset.json');
    writeFileSync(
      file,
      JSON.stringify({ settings: JSON.stringify({ allow_percentage: '50' }), 'room.checkout.allow_percentage': '30' }),
    );
    expect(await ensureLogEndpoint(file)).toContain('set to "stdout"');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      settings: JSON.stringify({ allow_percentage: '50', log_endpoint: 'stdout' }),
      'room.checkout.allow_percentage': '30',
    });
  });

  it('leaves a named endpoint alone: the local host prints its lines too', async () => {
    const file = join(dir, 'named.json');
    const store = { settings: JSON.stringify({ log_endpoint: 'waiting_room_log' }) };
    writeFileSync(file, JSON.stringify(store));
    expect(await ensureLogEndpoint(file)).toContain('"waiting_room_log"');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(store);
  });
});
