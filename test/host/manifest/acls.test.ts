// [local_server.acls]: each ACL's prefixes and actions, from a JSON file.
import { describe, expect, it } from 'vitest';
import { readAcls } from '../../../host/src/manifest/acls.js';
import { readerWith, refusedKey } from './support.js';

describe('[local_server.acls]', () => {
  it('reads prefixes into networks and mask lengths, actions upper-cased', () => {
    const acls = readAcls(
      { blocklist: 'acl.json' },
      readerWith({
        'acl.json':
          '{"entries":[{"prefix":"192.0.2.0/24","action":"block"},{"prefix":"2001:db8::1","action":"allow"}]}',
      }),
    );
    expect(acls.blocklist).toEqual([
      { network: [192, 0, 2, 0], bits: 24, prefix: '192.0.2.0/24', action: 'BLOCK' },
      expect.objectContaining({ bits: 128, action: 'ALLOW' }),
    ]);
  });

  it.each([
    [
      'a bad mask',
      '{"entries":[{"prefix":"192.0.2.0/33","action":"block"}]}',
      'local_server.acls.blocklist.entries[0].prefix',
    ],
    ['a file without entries', '{"rules":[]}', 'local_server.acls.blocklist'],
  ])('refuses %s, naming the key', (_what, json, key) => {
    expect(refusedKey(() => readAcls({ blocklist: 'acl.json' }, readerWith({ 'acl.json': json })))).toBe(key);
  });
});
