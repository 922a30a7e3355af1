import { describe, expect, it } from 'vitest';
import { CookieJar } from '../../load/jar.js';

const T = Date.UTC(2026, 0, 1);
const token = (dec: string) =>
  `eyJhbGciOiJIUzUxMiJ9.${Buffer.from(JSON.stringify({ dec, exp: 1, sub: 's' })).toString('base64url')}.c2ln`;

describe('CookieJar', () => {
  it('keeps cookies and sends them back together', () => {
    const jar = new CookieJar();
    expect(jar.header(T)).toBeNull();
    jar.store(
      ['waiting_room_default=abc; Path=/; Max-Age=600; HttpOnly; SameSite=Lax', 'shop_session=42; Path=/; HttpOnly'],
      T,
    );
    expect(jar.header(T)).toBe('waiting_room_default=abc; shop_session=42');
  });

  it('replaces a cookie of the same name and forgets it on Max-Age=0', () => {
    const jar = new CookieJar();
    jar.store(['waiting_room_default=one; Max-Age=600'], T);
    jar.store(['waiting_room_default=two; Max-Age=600'], T);
    expect(jar.get('waiting_room_default', T)).toBe('two');
    jar.store(['waiting_room_default=; Path=/; Max-Age=0'], T);
    expect(jar.header(T)).toBeNull();
  });

  it('lets a cookie expire after its Max-Age, and reads Expires without one', () => {
    const jar = new CookieJar();
    jar.store(['a=1; Max-Age=10', `b=2; Expires=${new Date(T + 5_000).toUTCString()}`], T);
    expect(jar.header(T + 4_000)).toBe('a=1; b=2');
    expect(jar.header(T + 6_000)).toBe('a=1');
    expect(jar.header(T + 10_000)).toBeNull();
  });

  it("tells the kind of the room's token, without its key", () => {
    const jar = new CookieJar();
    expect(jar.roomTokenKind(T)).toBeNull();
    jar.store([`waiting_room_default=${token('wait')}; Max-Age=60`], T);
    expect(jar.roomTokenKind(T)).toBe('wait');
    jar.store([`waiting_room_default=${token('allow')}; Max-Age=60`], T);
    expect(jar.roomTokenKind(T)).toBe('allow');
    jar.store(['waiting_room_default=garbage; Max-Age=60'], T);
    expect(jar.roomTokenKind(T)).toBeNull();
  });
});
