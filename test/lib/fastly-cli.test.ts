// Running the Fastly CLI: every command is printed as it could be pasted into a shell, a dry run
// runs nothing, and a store is found by the name the service links it under.
import { describe, expect, it } from 'vitest';
import { fastlyRunner, formatCommand, resolveStoreId, shellQuote, type FastlyRunner } from '../../lib/fastly-cli.js';

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
    expect(() => resolveStoreId(answering('[]'), 'svc', 'waiting_room_keys')).toThrow(/no store linked as "waiting_room_keys".*pass the store id yourself/);
    expect(() => resolveStoreId(answering('not json'), 'svc', 'waiting_room_keys')).toThrow(/pass the store id yourself/);
  });
});
