// fastly_log: a named endpoint's lines, printed as Viceroy prints them (`name :: message`).
import { describe, expect, it } from 'vitest';
import { logTo } from '../../../host/src/abi/log.js';
import { BADF, INVAL, OK } from '../../../host/src/guest/status.js';
import { Guest, OUTSIDE } from './sandbox-fixture.js';

/** A guest, its log module, and the lines printed so far (as Latin-1 text, one char a byte). */
function logging() {
  const g = new Guest();
  const lines: string[] = [];
  const log = logTo((line) => lines.push(Buffer.from(line).toString('latin1')));
  const write = (h: number, message: string): { status: number; written: number } => {
    const nw = g.alloc(4);
    const status = g.call(log, 'write', h, ...g.str(message, 'latin1'), nw);
    return { status, written: g.u32(nw) };
  };
  return { g, log, lines, write };
}

describe('fastly_log', () => {
  it('prints each write as "name :: message" and reports every byte written', () => {
    const { g, log, lines, write } = logging();
    const h = g.handle(log, 'endpoint_get', ...g.str('decisions'));
    expect(write(h, 'admit visitor 7')).toEqual({ status: OK, written: 15 });
    expect(lines).toEqual(['decisions :: admit visitor 7\n']);
  });

  it('drops one trailing newline and escapes the others, as Viceroy does', () => {
    const { g, log, lines, write } = logging();
    const h = g.handle(log, 'endpoint_get', ...g.str('e'));
    expect(write(h, 'a\nb\n')).toEqual({ status: OK, written: 4 });
    expect(write(h, 'c\n\n').written).toBe(3);
    expect(lines).toEqual(['e :: a\\nb\n', 'e :: c\\n\n']);
  });

  it('prints nothing for an empty message or a lone newline, yet counts its bytes', () => {
    const { g, log, lines, write } = logging();
    const h = g.handle(log, 'endpoint_get', ...g.str('e'));
    expect(write(h, '')).toEqual({ status: OK, written: 0 });
    expect(write(h, '\n')).toEqual({ status: OK, written: 1 });
    expect(lines).toEqual([]);
  });

  it('keeps the bytes of name and message as they are, whatever their encoding', () => {
    const { g, log, lines, write } = logging();
    const h = g.handle(log, 'endpoint_get', ...g.str('caf\xe9', 'latin1'));
    write(h, 'na\xefve \xc3\xa9');
    expect(lines).toEqual(['caf\xe9 :: na\xefve \xc3\xa9\n']);
  });

  it('answers BADF for a write to a handle that is not an endpoint', () => {
    const { g, lines, write } = logging();
    expect(write(77, 'x').status).toBe(BADF);
    expect(write(g.add({ kind: 'config', name: 'e' }), 'x').status).toBe(BADF);
    expect(lines).toEqual([]);
  });

  it('answers INVAL for a name or message outside guest memory, and prints nothing', () => {
    const { g, log, lines } = logging();
    expect(g.call(log, 'endpoint_get', OUTSIDE, 4, g.alloc(4))).toBe(INVAL);
    const h = g.handle(log, 'endpoint_get', ...g.str('e'));
    expect(g.call(log, 'write', h, OUTSIDE, 4, g.alloc(4))).toBe(INVAL);
    expect(lines).toEqual([]);
  });
});
