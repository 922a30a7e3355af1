// Cookie parsing and removal over arbitrary headers: every other pair reaches the origin exactly as
// sent, the room's never, whatever the order and separators.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cookieName, removeRoomCookie, roomCookies } from '../../../src/core/request/cookies.js';

const COOKIE_NAME = cookieName('shop');
const OTHER_ROOM = cookieName('checkout');

// RFC 6265 cookie names and values: no separators, whitespace, commas or semicolons.
const nameChars = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$%&'*+-.^_`|~";
const valueChars = `${nameChars}()/:<>?@[]{}`;
const name = fc
  .string({ unit: fc.constantFrom(...nameChars), minLength: 1, maxLength: 12 })
  .filter((n) => !n.startsWith('waiting_room'));
const value = fc.oneof(
  fc.string({ unit: fc.constantFrom(...valueChars), maxLength: 20 }),
  fc.string({ unit: fc.constantFrom(...valueChars), maxLength: 20 }).map((v) => `"${v}"`),
);
// Values some sites send anyway: a bare comma inside (`list=a,b=c`), which is not a separator, unless
// what follows is a room cookie's name and `=` (then it is: a room cookie is always cut out).
const commaValue = fc
  .string({ unit: fc.constantFrom(...valueChars, ',', ',', 'waiting_ro'), maxLength: 20 })
  .filter((v) => !/,waiting_room(?:=|_[^\s=;,]*=)/.test(v));
const pair = fc.oneof(
  { weight: 1, arbitrary: fc.tuple(name, commaValue).map(([n, v]) => ({ room: false, text: `${n}=${v}` })) },
  { weight: 3, arbitrary: fc.tuple(name, value).map(([n, v]) => ({ room: false, text: `${n}=${v}` })) },
  {
    weight: 1,
    arbitrary: fc
      .string({ unit: fc.constantFrom(...valueChars), minLength: 1, maxLength: 30 })
      .map((v) => ({ room: true, own: true, text: `${COOKIE_NAME}=${v}` })),
  },
  // Another room's cookie, and the bare name of older builds: never read here, never sent on either.
  {
    weight: 1,
    arbitrary: fc
      .tuple(
        fc.constantFrom(OTHER_ROOM, 'waiting_room'),
        fc.string({ unit: fc.constantFrom(...valueChars), minLength: 1, maxLength: 30 }),
      )
      .map(([n, v]) => ({ room: true, own: false, text: `${n}=${v}` })),
  },
);
/** A separator between pairs: what browsers send, and what a runtime joining two headers makes. */
const separator = fc.constantFrom('; ', ';', ';  ', ', ', ',');

describe('cookies over arbitrary headers', () => {
  it('removes every room cookie and keeps every other pair byte for byte, in order', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(pair, separator), { minLength: 1, maxLength: 12 }), (items) => {
        // A bare comma separates only before a room cookie.
        const sep = (i: number): string => (items[i]![1] === ',' && !items[i + 1]![0].room ? '; ' : items[i]![1]);
        const header = items.map(([p], i) => p.text + (i < items.length - 1 ? sep(i) : '')).join('');
        const headers = new Headers({ cookie: header });
        expect(roomCookies(headers, 'shop')).toEqual(
          items
            .filter(([p]) => 'own' in p && p.own)
            .map(([p]) => p.text.slice(COOKIE_NAME.length + 1).replace(/^"(.*)"$/, '$1'))
            .filter((v) => v !== ''),
        );
        removeRoomCookie(headers);
        const kept = items.filter(([p]) => !p.room).map(([p]) => p.text);
        const sent = headers.get('cookie');
        if (kept.length === 0) expect(sent).toBeNull();
        else expect(sent!.split(/;\s*/)).toEqual(kept);
        // No pair of a room's name reaches the origin (a value may say `waiting_room`: `a=waiting_room` is the site's).
        expect((sent ?? '').split(/;\s*/).filter((p) => p.split('=')[0]!.startsWith('waiting_room'))).toEqual([]);
      }),
      { numRuns: 3000 },
    );
  });
});
