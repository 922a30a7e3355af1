// What an app is told by the bot detection hostcalls, asked by a hand-written guest (js-compute
// 3.46 has no API for them). As under Viceroy, the verdict comes from the X-Fastly-Bot-* headers
// the client sent: the guest first removes X-Fastly-Bot-Name from its own request, and is still
// told the name. Each line of the response is one call: its label, the status, and on success the
// value (on BUFLEN, the length the text needs). Statuses: 0 OK, 2 INVAL, 4 BUFLEN, 10 NONE.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHost, type RunningHost } from '../../../lib/host-process.js';
import { watGuest, type WatGuest } from '../wat-guest.js';

// String constants of the guest, placed one after another from byte 64 as the module text uses them.
const strings = new Map<string, number>();
let nextString = 64;
/** `(i32.const ptr) (i32.const len)` of `text` in the guest's memory. */
function str(text: string): string {
  let at = strings.get(text);
  if (at === undefined) {
    at = nextString;
    strings.set(text, at);
    nextString += text.length;
  }
  return `(i32.const ${at}) (i32.const ${text.length})`;
}

// Memory: handles at 0 (request), 4 (its body), 8 (response), 12 (response body); a u32 answer at
// 16, nwritten at 20 and 24; text answers at 1024 (256 bytes); the response text from 4096 on.
const REQ = '(i32.load (i32.const 0))';
const TEXT = '(i32.const 1024)';
const guestText = (): string => String.raw`
(module
  (import "fastly_http_req" "body_downstream_get" (func $downstream (param i32 i32) (result i32)))
  (import "fastly_http_req" "header_remove" (func $req_header_remove (param i32 i32 i32) (result i32)))
  (import "fastly_http_req" "header_value_get" (func $req_header_value (param i32 i32 i32 i32 i32 i32) (result i32)))
  (import "fastly_http_resp" "new" (func $resp_new (param i32) (result i32)))
  (import "fastly_http_resp" "send_downstream" (func $send (param i32 i32 i32) (result i32)))
  (import "fastly_http_body" "new" (func $body_new (param i32) (result i32)))
  (import "fastly_http_body" "write" (func $write (param i32 i32 i32 i32 i32) (result i32)))
  (import "fastly_http_downstream" "downstream_bot_analyzed" (func $bot_analyzed (param i32 i32) (result i32)))
  (import "fastly_http_downstream" "downstream_bot_detected" (func $bot_detected (param i32 i32) (result i32)))
  (import "fastly_http_downstream" "downstream_bot_verified" (func $bot_verified (param i32 i32) (result i32)))
  (import "fastly_http_downstream" "downstream_bot_category_kind" (func $bot_category_kind (param i32 i32) (result i32)))
  (import "fastly_http_downstream" "downstream_bot_name" (func $bot_name (param i32 i32 i32 i32) (result i32)))
  (import "fastly_http_downstream" "downstream_bot_category" (func $bot_category (param i32 i32 i32 i32) (result i32)))
  (memory (export "memory") 1)
  (global $out (mut i32) (i32.const 4096))

  (func $ok (param $status i32)
    (if (local.get $status) (then unreachable)))

  (func $byte (param $b i32)
    (i32.store8 (global.get $out) (local.get $b))
    (global.set $out (i32.add (global.get $out) (i32.const 1))))

  (func $bytes (param $ptr i32) (param $len i32)
    (block $done
      (loop $next
        (br_if $done (i32.eqz (local.get $len)))
        (call $byte (i32.load8_u (local.get $ptr)))
        (local.set $ptr (i32.add (local.get $ptr) (i32.const 1)))
        (local.set $len (i32.sub (local.get $len) (i32.const 1)))
        (br $next))))

  ;; Decimal text of an unsigned number.
  (func $number (param $n i32)
    (if (i32.ge_u (local.get $n) (i32.const 10))
      (then (call $number (i32.div_u (local.get $n) (i32.const 10)))))
    (call $byte (i32.add (i32.const 48) (i32.rem_u (local.get $n) (i32.const 10)))))

  ;; "<label> <status>"
  (func $head (param $label i32) (param $len i32) (param $status i32)
    (call $bytes (local.get $label) (local.get $len))
    (call $byte (i32.const 32))
    (call $number (local.get $status)))

  (func $report_status (param $label i32) (param $len i32) (param $status i32)
    (call $head (local.get $label) (local.get $len) (local.get $status))
    (call $byte (i32.const 10)))

  ;; A u32 answer (at 16) follows the status when the call succeeded.
  (func $report_u32 (param $label i32) (param $len i32) (param $status i32)
    (call $head (local.get $label) (local.get $len) (local.get $status))
    (if (i32.eqz (local.get $status))
      (then (call $byte (i32.const 32)) (call $number (i32.load (i32.const 16)))))
    (call $byte (i32.const 10)))

  ;; A text answer (at 1024, its length at 20) follows on success; on BUFLEN the length needed.
  (func $report_text (param $label i32) (param $len i32) (param $status i32)
    (call $head (local.get $label) (local.get $len) (local.get $status))
    (if (i32.eqz (local.get $status))
      (then (call $byte (i32.const 32)) (call $bytes (i32.const 1024) (i32.load (i32.const 20)))))
    (if (i32.eq (local.get $status) (i32.const 4))
      (then (call $byte (i32.const 32)) (call $number (i32.load (i32.const 20)))))
    (call $byte (i32.const 10)))

  (func (export "_start")
    (call $ok (call $downstream (i32.const 0) (i32.const 4)))
    ;; The app's own request loses the header; the verdict must not.
    (call $report_status ${str('remove x-fastly-bot-name')}
      (call $req_header_remove ${REQ} ${str('x-fastly-bot-name')}))
    (call $report_text ${str('request x-fastly-bot-name')}
      (call $req_header_value ${REQ} ${str('x-fastly-bot-name')} ${TEXT} (i32.const 256) (i32.const 20)))

    (call $report_u32 ${str('analyzed')} (call $bot_analyzed ${REQ} (i32.const 16)))
    (call $report_u32 ${str('detected')} (call $bot_detected ${REQ} (i32.const 16)))
    (call $report_u32 ${str('verified')} (call $bot_verified ${REQ} (i32.const 16)))
    (call $report_u32 ${str('category_kind')} (call $bot_category_kind ${REQ} (i32.const 16)))
    (call $report_text ${str('name')} (call $bot_name ${REQ} ${TEXT} (i32.const 256) (i32.const 20)))
    (call $report_text ${str('name in 2 bytes')} (call $bot_name ${REQ} ${TEXT} (i32.const 2) (i32.const 20)))
    (call $report_text ${str('category')} (call $bot_category ${REQ} ${TEXT} (i32.const 256) (i32.const 20)))

    (call $ok (call $resp_new (i32.const 8)))
    (call $ok (call $body_new (i32.const 12)))
    (call $ok (call $write (i32.load (i32.const 12))
      (i32.const 4096) (i32.sub (global.get $out) (i32.const 4096)) (i32.const 0) (i32.const 24)))
    (call $ok (call $send (i32.load (i32.const 8)) (i32.load (i32.const 12)) (i32.const 0))))

  ${[...strings].map(([text, at]) => `(data (i32.const ${at}) "${text}")`).join('\n  ')}
)`;

let guest: WatGuest;
let host: RunningHost;

beforeAll(async () => {
  guest = await watGuest(guestText(), 'bot');
  host = await startHost({ wasm: guest.wasm });
});

afterAll(async () => {
  await host?.stop();
  await guest?.remove();
});

async function seen(headers: Record<string, string>): Promise<string[]> {
  const res = await fetch(`${host.url}/`, { headers });
  expect(res.status).toBe(200);
  return (await res.text()).trimEnd().split('\n');
}

describe('bot detection hostcalls', () => {
  it('tell an app of the bot its client claims to be, from the headers as sent', async () => {
    const lines = await seen({
      'X-Fastly-Bot-Analyzed': 'true',
      'X-Fastly-Bot-Detected': 'true',
      'X-Fastly-Bot-Name': 'BadBot',
      'X-Fastly-Bot-Category': 'AI-Crawler',
      'X-Fastly-Bot-Verified': 'true',
    });
    expect(lines).toEqual([
      'remove x-fastly-bot-name 0',
      'request x-fastly-bot-name 10', // gone from the app's request...
      'analyzed 0 1',
      'detected 0 1',
      'verified 0 1',
      'category_kind 0 3', // ai-crawler, whatever the case
      'name 0 BadBot', // ...yet still the bot's name
      'name in 2 bytes 4 6', // BUFLEN, and the length to retry with
      'category 0 AI-Crawler',
    ]);
  });

  it('tell an app of a request without bot headers that it was not analysed, and no more', async () => {
    expect(await seen({})).toEqual([
      'remove x-fastly-bot-name 2', // INVAL: there was no such header
      'request x-fastly-bot-name 10',
      'analyzed 0 0',
      'detected 0 0',
      'verified 10', // NONE, not "unverified"
      'category_kind 10',
      'name 10',
      'name in 2 bytes 10',
      'category 10',
    ]);
  });

  it('read only exactly "true" as yes, and a category number as its kind', async () => {
    const lines = await seen({
      'X-Fastly-Bot-Analyzed': 'yes',
      'X-Fastly-Bot-Detected': 'TRUE',
      'X-Fastly-Bot-Verified': 'false',
      'X-Fastly-Bot-Category': '42',
    });
    expect(lines.slice(2)).toEqual([
      'analyzed 0 0',
      'detected 0 0',
      'verified 0 0', // present, so an answer: not verified
      'category_kind 0 42',
      'name 10',
      'name in 2 bytes 10',
      'category 0 42',
    ]);
  });
});
