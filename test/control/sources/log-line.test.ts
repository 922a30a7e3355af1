// Reading decision lines from any of the sources' shapes; garbage is counted, never thrown.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseLogLine } from '../../../control/sources/log-line.js';
import { decisionLine } from '../../../src/core/log/log-line.js';

const NOW = Date.UTC(2026, 10, 24, 12);
const real = decisionLine({
  nowMs: NOW - 1000,
  pop: 'LHR',
  room: 'shop',
  rule: null,
  waitPeriodSeconds: 30,
  decision: 'start',
  outcome: 'startwaiting',
  reason: 'no_token',
  kid: 'k1',
  method: 'GET',
  path: '/',
  identity: 'ip',
  status: 200,
});

/** A preview link's line, as the edge writes it (src/core/handler/preview.ts). */
const previewLine = (reason = 'preview', status = 200): string =>
  decisionLine({
    nowMs: NOW - 1000,
    pop: 'LHR',
    room: 'shop',
    rule: null,
    waitPeriodSeconds: 30,
    decision: 'preview',
    outcome: 'preview',
    reason: reason as 'preview',
    kid: null,
    method: 'GET',
    path: '/__waiting_room/preview',
    identity: null,
    status,
    lang: 'ja-JP',
    preview: 'startwaiting',
  });

describe('parseLogLine', () => {
  it('reads the line the edge writes, however the source prefixes it', () => {
    for (const text of [real, `waiting_room_log :: ${real}`, `stdout | 1a2b3c4d | ${real}`, `${real}\r`]) {
      const v = parseLogLine(text, NOW);
      expect(v.kind).toBe('decision');
      if (v.kind === 'decision')
        expect(v.line).toMatchObject({ pop: 'LHR', period: 30, reason: 'no_token', tsMs: NOW - 1000 });
    }
  });

  it("reads a preview link's line as a preview, never as a visitor's decision", () => {
    expect(parseLogLine(previewLine(), NOW)).toEqual({ kind: 'preview', room: 'shop', reason: 'preview' });
    expect(parseLogLine(previewLine('preview_expired', 403), NOW)).toMatchObject({ reason: 'preview_expired' });
    // Still checked as the room's line first: a broken one is bad.
    expect(parseLogLine(previewLine().replace(/"ts":"[^"]+"/, '"ts":"then"'), NOW).kind).toBe('bad');
  });

  it("calls other output foreign, and the room's marker with unusable fields bad, with the reason", () => {
    expect(parseLogLine('[start] the room is up', NOW).kind).toBe('foreign');
    expect(parseLogLine('{"level":"info"}', NOW).kind).toBe('foreign');
    const bad = (mutate: (o: Record<string, unknown>) => void): string => {
      const o = JSON.parse(real) as Record<string, unknown>;
      mutate(o);
      const v = parseLogLine(JSON.stringify(o), NOW);
      return v.kind === 'bad' ? v.why : v.kind;
    };
    expect(bad((o) => (o.wr = 2))).toMatch(/version/);
    expect(bad((o) => (o.ts = 'yesterday'))).toMatch(/ts/);
    expect(bad((o) => (o.ts = new Date(NOW + 3 * 86_400_000).toISOString()))).toMatch(/ts/);
    expect(bad((o) => (o.period = 0))).toMatch(/period/);
    expect(bad((o) => (o.newTid = 'not an id!'))).toMatch(/newTid/);
    expect(bad((o) => (o.pct = 140))).toMatch(/pct/);
    expect(parseLogLine('{"wr":1, truncated', NOW)).toEqual({ kind: 'bad', why: 'not valid JSON' });
  });

  it("reads a sampled line's weight w, 1 when absent; a w that is not a weight makes the line bad", () => {
    const v = parseLogLine(real, NOW);
    expect(v.kind === 'decision' && v.line.weight).toBe(1);
    const o = JSON.parse(real) as Record<string, unknown>;
    const withW = (w: unknown) => parseLogLine(JSON.stringify({ ...o, w }), NOW);
    const sampled = withW(100);
    expect(sampled.kind === 'decision' && sampled.line.weight).toBe(100);
    for (const bad of [0, 0.5, -2, '10', Number.MAX_VALUE, null]) {
      const verdict = withW(bad);
      expect(verdict.kind, String(bad)).toBe('bad');
      if (verdict.kind === 'bad') expect(verdict.why).toMatch(/\bw\b/);
    }
  });

  it('names the room that decided, null when none did; a line from before rooms is the default room', () => {
    const read = (mutate: (o: Record<string, unknown>) => void) => {
      const o = JSON.parse(real) as Record<string, unknown>;
      mutate(o);
      return parseLogLine(JSON.stringify(o), NOW);
    };
    expect(read(() => {})).toMatchObject({ kind: 'decision', line: { room: 'shop', rule: null } });
    expect(read((o) => ((o.room = null), (o.rule = 'webhooks'), (o.reason = 'rule_bypass')))).toMatchObject({
      kind: 'decision',
      line: { room: null, rule: 'webhooks' },
    });
    expect(read((o) => delete o.room)).toMatchObject({ kind: 'decision', line: { room: 'default' } });
    expect(read((o) => (o.room = 'Not A Room!'))).toEqual({ kind: 'bad', why: 'room must be a room id or null' });
  });

  it('reads "bot": true, the infinite queue\'s mark; anything else is no mark', () => {
    const o = JSON.parse(real) as Record<string, unknown>;
    const bot = (v: unknown) => {
      const verdict = parseLogLine(JSON.stringify({ ...o, bot: v }), NOW);
      return verdict.kind === 'decision' ? verdict.line.bot : verdict.kind;
    };
    expect(bot(true)).toBe(true);
    for (const v of [false, 'true', 1, null]) expect(bot(v), String(v)).toBe(false);
    const plain = parseLogLine(real, NOW);
    expect(plain.kind === 'decision' && plain.line.bot).toBe(false);
  });

  it('reads what a draw brought for a proof of work; an unknown value is left out, the line kept', () => {
    const o = JSON.parse(real) as Record<string, unknown>;
    const proof = (v: unknown) => {
      const verdict = parseLogLine(JSON.stringify({ ...o, proof: v }), NOW);
      return verdict.kind === 'decision' ? verdict.line.proof : verdict.kind;
    };
    for (const v of ['valid', 'wrong', 'failed', 'skipped', 'missing'] as const) expect(proof(v)).toBe(v);
    for (const v of ['solved', 1, null, true]) expect(proof(v), String(v)).toBeUndefined();
    const plain = parseLogLine(real, NOW);
    expect(plain.kind === 'decision' && plain.line.proof).toBeUndefined();
  });

  it("reads the language of the room's answer, and a line without one (an origin answer, an older edge) as before", () => {
    const withLang = decisionLine({
      nowMs: NOW - 1000,
      pop: 'LHR',
      room: 'shop',
      rule: null,
      waitPeriodSeconds: 30,
      decision: 'start',
      outcome: 'startwaiting',
      reason: 'no_token',
      kid: 'k1',
      method: 'GET',
      path: '/',
      identity: 'ip',
      status: 200,
      lang: 'de-DE',
    });
    const v = parseLogLine(`waiting_room_log :: ${withLang}`, NOW);
    expect(v.kind === 'decision' && v.line).toMatchObject({ reason: 'no_token', lang: 'de-DE' });
    // A line written before the field: read whole, no language.
    const old = JSON.stringify({
      wr: 1,
      ts: new Date(NOW - 1000).toISOString(),
      pop: 'LHR',
      room: 'shop',
      rule: null,
      win: 0,
      period: 30,
      decision: 'start',
      outcome: 'startwaiting',
      reason: 'no_token',
      kid: 'k1',
      method: 'GET',
      path: '/',
      identity: 'ip',
      status: 200,
      tid: null,
      exp: null,
      dec: null,
      newTid: 'AAAAAAA1',
      newExp: 30,
      newDec: 'wait',
      nextTid: null,
      pct: null,
      pos: null,
    });
    const before = parseLogLine(old, NOW);
    expect(before.kind).toBe('decision');
    expect(before.kind === 'decision' && before.line).toMatchObject({ newTid: 'AAAAAAA1', weight: 1 });
    expect(before.kind === 'decision' && 'lang' in before.line).toBe(false);
  });

  it('leaves out a lang that is no language tag, and keeps the line', () => {
    const o = JSON.parse(real) as Record<string, unknown>;
    const lang = (v: unknown) => {
      const verdict = parseLogLine(JSON.stringify({ ...o, lang: v }), NOW);
      return verdict.kind === 'decision' ? verdict.line.lang : verdict.kind;
    };
    for (const v of ['en-US', 'ar-EG', 'zh-Hant-TW', 'de']) expect(lang(v)).toBe(v);
    for (const v of [
      '',
      'x',
      '<script>',
      'de DE',
      'de-DE\n',
      '-de',
      'de--DE',
      'a'.repeat(40),
      `en-${'x'.repeat(40)}`,
      42,
      null,
      true,
      ['de-DE'],
      { tag: 'de-DE' },
    ]) {
      expect(lang(v), JSON.stringify(v)).toBeUndefined();
    }
  });

  it('keeps the line whatever value lang holds, and reads a tag only', () => {
    const o = JSON.parse(real) as Record<string, unknown>;
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.stringMatching(/^[a-z]{2}-[A-Z]{2}$/), fc.jsonValue()), (v) => {
        const verdict = parseLogLine(JSON.stringify({ ...o, lang: v }), NOW);
        expect(verdict.kind).toBe('decision');
        const lang = verdict.kind === 'decision' ? verdict.line.lang : undefined;
        if (lang !== undefined) expect(lang).toBe(v);
        if (typeof v === 'string' && /^[a-z]{2}-[A-Z]{2}$/.test(v)) expect(lang).toBe(v);
      }),
      { numRuns: 500 },
    );
  });

  it("reads the waiting page's variant and its fallback, and leaves out what is neither, keeping the line", () => {
    const o = JSON.parse(real) as Record<string, unknown>;
    const read = (fields: Record<string, unknown>) => {
      const verdict = parseLogLine(JSON.stringify({ ...o, ...fields }), NOW);
      expect(verdict.kind).toBe('decision');
      return verdict.kind === 'decision' ? verdict.line : null;
    };
    expect(read({ variant: 'b' })).toMatchObject({ variant: 'b' });
    expect(read({ variant: 'b', variantFallback: 'missing' })).toMatchObject({
      variant: 'b',
      variantFallback: 'missing',
    });
    expect(read({ variant: 'b', variantFallback: 'later' })!.variantFallback).toBeUndefined();
    // A fallback without a variant names nothing.
    expect(read({ variantFallback: 'missing' })).not.toHaveProperty('variantFallback');
    for (const v of ['B', '', 'b-1', 'x'.repeat(17), '<b>', 3, null, ['b'], { b: 1 }]) {
      const line = read({ variant: v, variantFallback: 'missing' })!;
      expect(line, JSON.stringify(v)).not.toHaveProperty('variant');
      expect(line).not.toHaveProperty('variantFallback');
      expect(line.reason).toBe(o.reason);
    }
  });

  it("reads the origin's time and status of a forwarded request, and a line without them as before", () => {
    const forwarded = decisionLine({
      nowMs: NOW - 1000,
      pop: 'LHR',
      room: 'shop',
      rule: null,
      waitPeriodSeconds: 30,
      decision: 'allow',
      outcome: 'origin',
      reason: 'allow_valid',
      kid: 'k1',
      method: 'GET',
      path: '/',
      identity: 'ip',
      status: 502,
      originError: true,
      originMs: 1200,
      originStatus: 'timeout',
    });
    const v = parseLogLine(`waiting_room_log :: ${forwarded}`, NOW);
    expect(v.kind === 'decision' && v.line).toMatchObject({ originMs: 1200, originStatus: 'timeout' });
    const plain = parseLogLine(real, NOW);
    expect(plain.kind === 'decision' && Object.keys(plain.line).filter((k) => k.startsWith('origin'))).toEqual([]);
  });

  it('leaves out an originMs or originStatus it cannot believe, and keeps the line', () => {
    const o = JSON.parse(real) as Record<string, unknown>;
    const read = (field: 'originMs' | 'originStatus', v: unknown) => {
      const verdict = parseLogLine(JSON.stringify({ ...o, [field]: v }), NOW);
      expect(verdict.kind, JSON.stringify(v)).toBe('decision');
      return verdict.kind === 'decision' ? verdict.line[field] : undefined;
    };
    for (const v of [0, 1, 37, 15_000]) expect(read('originMs', v)).toBe(v);
    for (const v of [-1, 1.5, Number.MAX_SAFE_INTEGER + 2, '120', null, true, [120], { ms: 120 }])
      expect(read('originMs', v), JSON.stringify(v)).toBeUndefined();
    for (const v of [100, 200, 404, 429, 503, 599, 'timeout', 'refused', 'failed'])
      expect(read('originStatus', v)).toBe(v);
    for (const v of [99, 600, 0, -200, 200.5, '200', 'TIMEOUT', 'down', '', null, false, ['refused']])
      expect(read('originStatus', v), JSON.stringify(v)).toBeUndefined();
  });

  it('keeps the line whatever the origin fields hold', () => {
    const o = JSON.parse(real) as Record<string, unknown>;
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (ms, st) => {
        const verdict = parseLogLine(JSON.stringify({ ...o, originMs: ms, originStatus: st }), NOW);
        expect(verdict.kind).toBe('decision');
      }),
      { numRuns: 300 },
    );
  });

  it('never throws on arbitrary text', () => {
    for (let i = 0; i < 2000; i++) {
      const text = Array.from({ length: i % 80 }, (_, j) => String.fromCharCode((i * 31 + j * 17) % 0x3000)).join('');
      expect(() => parseLogLine(`{"wr":1${text}`, NOW)).not.toThrow();
      expect(() => parseLogLine(text, NOW)).not.toThrow();
    }
  });
});
