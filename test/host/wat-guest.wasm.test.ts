// The smallest guest the host runs: a hand-written module with its memory, `_start` and four
// hostcalls, no WASI and no js-compute runtime. It proves the helper (wat-guest.ts) and what such
// a guest needs, before a suite leans on it for calls js-compute cannot make.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHost, type RunningHost } from '../../lib/host-process.js';
import { compileWat, watGuest, type WatGuest } from './wat-guest.js';

const HELLO = String.raw`
(module
  (import "fastly_http_req" "body_downstream_get" (func $downstream (param i32 i32) (result i32)))
  (import "fastly_http_resp" "new" (func $resp_new (param i32) (result i32)))
  (import "fastly_http_resp" "send_downstream" (func $send (param i32 i32 i32) (result i32)))
  (import "fastly_http_body" "new" (func $body_new (param i32) (result i32)))
  (import "fastly_http_body" "write" (func $write (param i32 i32 i32 i32 i32) (result i32)))
  (memory (export "memory") 1)
  (data (i32.const 64) "hello from a hand-written guest\n")

  ;; A hostcall that fails traps, so the test sees a 5xx rather than a silent empty answer.
  (func $ok (param $status i32)
    (if (local.get $status) (then unreachable)))

  ;; Handles: downstream request at 0, its body at 4, response at 8, response body at 12;
  ;; nwritten at 16. body.write's end 0 is "back" (append).
  (func (export "_start")
    (call $ok (call $downstream (i32.const 0) (i32.const 4)))
    (call $ok (call $resp_new (i32.const 8)))
    (call $ok (call $body_new (i32.const 12)))
    (call $ok (call $write (i32.load (i32.const 12)) (i32.const 64) (i32.const 32) (i32.const 0) (i32.const 16)))
    (call $ok (call $send (i32.load (i32.const 8)) (i32.load (i32.const 12)) (i32.const 0)))))
`;

let guest: WatGuest;
let host: RunningHost;

beforeAll(async () => {
  guest = await watGuest(HELLO, 'hello');
  host = await startHost({ wasm: guest.wasm });
});

afterAll(async () => {
  await host?.stop();
  await guest?.remove();
});

describe('a hand-written guest', () => {
  it('answers a request with nothing but its memory, _start and the HTTP hostcalls', async () => {
    const res = await fetch(`${host.url}/anything`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('hello from a hand-written guest\n');
    // Every hostcall it imports is emulated: nothing was reported as missing.
    expect(host.errors().filter((line) => line.includes('not emulated'))).toEqual([]);
  });
});

describe('compileWat', () => {
  it('names the file, line and column of a syntax error', async () => {
    await expect(compileWat('(module\n  (func (i32.bogus)))', 'broken.wat')).rejects.toThrow(
      /broken\.wat:2:\d+: error: unexpected token "i32\.bogus"/,
    );
  });

  it('refuses a module that does not validate', async () => {
    await expect(compileWat('(module\n  (func (result i32)))')).rejects.toThrow(
      /guest\.wat:2:\d+: error: type mismatch/,
    );
  });
});
