// What npm start says when the room is not up: from the Fastly CLI's last lines, the cause and the
// way on, never "did not listen" for a room that is still downloading Viceroy.
import { describe, expect, it } from 'vitest';
import { roomExitMessage, roomSlowMessage } from '../../scripts/start-room.js';

const offline = [
  '| Fetching Viceroy release: latest...',
  '✗ Fetching Viceroy release: latest',
  'ERROR: error downloading Viceroy release: failed to request GitHub metadata: Get "https://developer.fastly.com/...": dial tcp: lookup developer.fastly.com: no such host.',
];

describe('npm start: the room did not come up', () => {
  it('an offline --viceroy: Viceroy could not be fetched, and the local host needs no download', () => {
    const message = roomExitMessage('exit 1', offline, true);
    expect(message).toContain('Viceroy could not be fetched');
    expect(message).toContain('npm start');
    expect(message).toContain('--host /path/to/viceroy');
  });

  it('a CLI still fetching Viceroy when the wait ends is said to be fetching, not slow', () => {
    const message = roomSlowMessage('127.0.0.1:7676', 120, [
      '| Fetching Viceroy release: latest...',
      '/ Fetching Viceroy release: latest...',
    ]);
    expect(message).toContain('still fetching Viceroy after 120 s');
    expect(message).toContain('npm start');
    expect(message).not.toContain('did not listen');
  });

  it('any other stop names the exit and shows the last lines of a room that is slow', () => {
    expect(roomExitMessage('exit 2', ['compute-host: invalid configuration'], false)).toBe(
      'the room stopped (exit 2); stopping the shop too',
    );
    expect(roomSlowMessage('127.0.0.1:7676', 120, ['✓ Running local server'])).toContain('✓ Running local server');
  });
});
