import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../../src/core/settings/index.js';
import {
  cookieHeaderWithoutRoom,
  cookieNames,
  cookieValue,
  removeRoomCookie,
  roomCookies,
  setLanguageCookie,
} from '../../../src/core/request/cookies.js';

describe('the wr_lang cookie', () => {
  it('is read by its exact name, the first one winning, and is no room cookie', () => {
    expect(cookieValue('xwr_lang=fr-FR; wr_lang="de-DE"; wr_lang=ja-JP', 'wr_lang')).toBe('de-DE');
    expect(cookieValue('a=1', 'wr_lang')).toBeNull();
    expect(cookieValue(null, 'wr_lang')).toBeNull();
    expect(cookieHeaderWithoutRoom('wr_lang=de-DE; waiting_room_default=t')).toBe('wr_lang=de-DE');
  });

  it('is kept a year, readable by the page, Secure as the room cookie would be', () => {
    const config = (settings: Record<string, string>) => parseConfig((key) => settings[key] ?? null).config;
    expect(setLanguageCookie('de-DE', config({}), false)).toBe('wr_lang=de-DE; Path=/; Max-Age=31536000; SameSite=Lax');
    expect(setLanguageCookie('de-DE', config({}), true)).toBe(
      'wr_lang=de-DE; Path=/; Max-Age=31536000; SameSite=Lax; Secure',
    );
    expect(setLanguageCookie('de-DE', config({ cookie_secure: 'true' }), false)).toMatch(/; Secure$/);
  });
});

describe('cookies', () => {
  it('finds every waiting_room value in order, duplicates kept, quotes removed', () => {
    const headers = new Headers({
      cookie:
        'a=1; waiting_room_default=one;waiting_room_default="two"; xwaiting_room_default=no; waiting_room_default=',
    });
    expect(roomCookies(headers, 'default')).toEqual(['one', 'two']);
    expect(roomCookies(new Headers(), 'default')).toEqual([]);
  });

  it('understands repeated Cookie headers joined by a comma', () => {
    expect(
      roomCookies(new Headers({ cookie: 'a=1, waiting_room_default=one; b=2, waiting_room_default=two' }), 'default'),
    ).toEqual(['one', 'two']);
  });

  it('joins repeated Cookie headers with "; " for the origin, with or without the room cookie, each pair as sent', () => {
    for (const [sent, expected] of [
      ['a=1, b="x y", waiting_room_default=t', 'a=1; b="x y"'],
      ['a=1, b=2, c=3', 'a=1; b=2; c=3'],
      ['waiting_room_default=t, a=1;b=2', 'a=1;b=2'],
    ] as const) {
      const headers = new Headers({ cookie: sent });
      removeRoomCookie(headers);
      expect(headers.get('cookie')).toBe(expected);
    }
  });

  it('strips only the room cookie and keeps the other pairs as sent', () => {
    expect(cookieHeaderWithoutRoom('a=1;waiting_room_default=x;  b="2 3"; c=%20')).toBe('a=1;b="2 3"; c=%20');
    // Two Cookie headers the runtime joined with ", " reach the origin joined with "; ".
    expect(cookieHeaderWithoutRoom('prefs=a, b=c; waiting_room_default=x')).toBe('prefs=a; b=c');
    expect(cookieHeaderWithoutRoom('waiting_room_default=x; a=1')).toBe('a=1');
    expect(cookieHeaderWithoutRoom('waiting_room_default=x; waiting_room_default=y')).toBeNull();
    const untouched = new Headers({ cookie: 'a=1;b=2', 'x-other': 'y' });
    removeRoomCookie(untouched);
    expect(untouched.get('cookie')).toBe('a=1;b=2');
    const stripped = new Headers({ cookie: 'waiting_room_default=x', 'x-other': 'y' });
    removeRoomCookie(stripped);
    expect(stripped.has('cookie')).toBe(false);
    expect(stripped.get('x-other')).toBe('y');
    const mixed = new Headers({ cookie: 'a=1; waiting_room_default=x; b=2' });
    removeRoomCookie(mixed);
    expect(mixed.get('cookie')).toBe('a=1; b=2');
  });

  it('cuts a room cookie that follows a bare comma, and leaves other bare commas inside their values', () => {
    expect(cookieHeaderWithoutRoom('vip=1,waiting_room_shop=abc')).toBe('vip=1');
    expect(cookieHeaderWithoutRoom('vip=1,waiting_room=abc; b=2')).toBe('vip=1; b=2');
    expect(roomCookies(new Headers({ cookie: 'vip=1,waiting_room_shop=abc' }), 'shop')).toEqual(['abc']);
    expect(cookieHeaderWithoutRoom('list=a,b=c; waiting_room_shop=x')).toBe('list=a,b=c');
    expect(cookieHeaderWithoutRoom('list=a,waiting_roomy=c; waiting_room_shop=x')).toBe('list=a,waiting_roomy=c');
  });
});

describe('cookieNames', () => {
  it('takes the name of each pair, split as the room splits them', () => {
    expect(cookieNames('a=1; b=x=y;  c=;=nameless; a=2')).toEqual(['a', 'b', 'c', 'a']);
    expect(cookieNames('a=1, vip=1')).toEqual(['a', 'vip']);
    expect(cookieNames('a=1,vip=1,waiting_room_shop=x')).toEqual(['a', 'waiting_room_shop']);
  });
});
