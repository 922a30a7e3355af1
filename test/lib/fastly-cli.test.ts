// Running the Fastly CLI: every command is printed as it could be pasted into a shell, a dry run
// runs nothing, and a store is found by the name the service links it under. The controller's async
// runner leaves the event loop free while the CLI runs, and stops a CLI that does not answer.
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  fastlyRunner,
  fastlyRunnerAsync,
  formatCommand,
  parseStoreList,
  resolveStoreId,
  shellQuote,
  type FastlyRunner,
} from '../../lib/fastly-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'wr-fastly-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
/** A stand-in `fastly` binary: a shell script. */
function fakeBin(name: string, script: string): string {
  const file = join(dir, name);
  writeFileSync(file, `#!/bin/sh\n${script}\n`);
  chmodSync(file, 0o755);
  return file;
}

describe('printed commands', () => {
  it('quotes only the arguments a shell would split or expand', () => {
    expect(shellQuote('config-store-entry')).toBe('config-store-entry');
    expect(shellQuote('--key=allow_percentage')).toBe('--key=allow_percentage');
    expect(shellQuote('two words')).toBe("'two words'");
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
    expect(shellQuote('$HOME')).toBe("'$HOME'");
  });

  it('shows what is piped in before the command', () => {
    expect(formatCommand(['secret-store-entry', 'create', '--name', 'k 2'], 'printf %s "$KEY"')).toBe(
      `printf %s "$KEY" | fastly secret-store-entry create --name 'k 2'`,
    );
  });
});

describe('fastlyRunner', () => {
  it('prints and runs nothing on a dry run', () => {
    const printed: string[] = [];
    const fastly = fastlyRunner(true, (line) => printed.push(line));
    expect(fastly.run(['config-store', 'list'])).toBeNull();
    expect(printed).toEqual(['fastly config-store list']);
  });
});

function answering(out: string | null): FastlyRunner {
  return { dryRun: out === null, run: () => out };
}

describe('resolveStoreId', () => {
  it('finds the store the service links under that name, in either spelling of the CLI', () => {
    const links = [
      { name: 'waiting_room_pages', resource_id: 'pages-id' },
      { Name: 'waiting_room_config', ResourceID: 'config-id' },
    ];
    expect(resolveStoreId(answering(JSON.stringify(links)), 'svc', 'waiting_room_config')).toBe('config-id');
    expect(resolveStoreId(answering(JSON.stringify(links)), 'svc', 'waiting_room_pages')).toBe('pages-id');
  });

  it('stands a placeholder in on a dry run', () => {
    expect(resolveStoreId(answering(null), 'svc', 'waiting_room_config')).toBe('<id of waiting_room_config>');
  });

  it('says to pass the id when the service links no such store or the answer is unreadable', () => {
    expect(() => resolveStoreId(answering('[]'), 'svc', 'waiting_room_keys')).toThrow(
      /no store linked as "waiting_room_keys".*pass the store id yourself/,
    );
    expect(() => resolveStoreId(answering('not json'), 'svc', 'waiting_room_keys')).toThrow(
      /pass the store id yourself/,
    );
  });
});

describe('fastlyRunnerAsync', () => {
  it('runs the CLI as a child process while the event loop goes on', async () => {
    // The CLI answers only once the test, through the event loop, creates a file it waits for.
    const flag = join(dir, 'go');
    const bin = fakeBin('waits', `while [ ! -f ${flag} ]; do sleep 0.05; done; cat; echo " $1 $2"`);
    const printed: string[] = [];
    const fastly = fastlyRunnerAsync(false, (l) => printed.push(l), { bin });
    const out = fastly.run(['config-store-entry', 'list'], { stdin: '[]' });
    // Were the CLI run blocking, this timer would fire only after it ended, and it would never end.
    setTimeout(() => writeFileSync(flag, ''), 10);
    expect(await out).toBe('[] config-store-entry list\n');
    expect(printed).toEqual(['$ fastly config-store-entry list']);
  });

  it("rejects with the CLI's own error when it fails", async () => {
    const bin = fakeBin('fails', 'echo "ERROR: the store was not found" >&2; exit 1');
    await expect(fastlyRunnerAsync(false, () => {}, { bin }).run(['config-store-entry', 'list'])).rejects.toThrow(
      'fastly config-store-entry list failed (exit 1): ERROR: the store was not found',
    );
  });

  it('stops a CLI that does not answer within its timeout, and says so', async () => {
    const bin = fakeBin('hangs', 'exec sleep 30');
    await expect(
      fastlyRunnerAsync(false, () => {}, { bin, timeoutMs: 200 }).run(['config-store-entry', 'list']),
    ).rejects.toThrow(/fastly config-store-entry list did not answer within 0.2 s: stopped/);
  });

  it('prints and runs nothing on a dry run', async () => {
    const printed: string[] = [];
    expect(
      await fastlyRunnerAsync(true, (l) => printed.push(l), { bin: '/nonexistent' }).run([
        'config-store-entry',
        'update',
        '--key',
        'a b',
      ]),
    ).toBeNull();
    expect(printed).toEqual(["fastly config-store-entry update --key 'a b'"]);
  });
});

describe('parseStoreList', () => {
  it('refuses JSON of another shape, naming what it expected, rather than read an empty store', () => {
    expect(parseStoreList('[{"item_key":"a","item_value":"1"}]')).toEqual({ a: '1' });
    expect(parseStoreList('{"data":[{"item_key":"a","item_value":"1"}]}')).toEqual({ a: '1' });
    expect(() => parseStoreList('{"error":"nope"}')).toThrow(
      'could not read the Config Store\'s items: expected an array of {item_key, item_value} (or {"data": [...]}), got {"error":"nope"}',
    );
    expect(() => parseStoreList('oops')).toThrow(/the answer is not JSON/);
  });
});
