// fastly_log: a named endpoint's lines go to stdout as `name :: message`, as Viceroy prints them.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { log } from '../../../host/src/abi/log.js';
import { BADF, OK } from '../../../host/src/abi/status.js';
import { harness } from './sandbox-fixture.js';

const written = vi.hoisted(() => [] as Array<{ fd: number; text: string }>);
vi.mock('../../../host/src/guest/wasi.js', async (original) => ({
  ...(await original<typeof import('../../../host/src/guest/wasi.js')>()),
  writeFd: (fd: number, data: Uint8Array) => written.push({ fd, text: Buffer.from(data).toString('latin1') }),
}));

beforeEach(() => {
  written.length = 0;
});

function endpoint(t: ReturnType<typeof harness>, name: string): number {
  const [p, l] = t.put(name);
  const out = t.area(4);
  expect(t.call(log.endpoint_get, p, l, out)).toBe(OK);
  return t.u32(out);
}

function write(t: ReturnType<typeof harness>, h: number, message: string | Uint8Array): { status: number; nw: number } {
  const [p, l] = t.put(message);
  const nw = t.area(4);
  return { status: t.call(log.write, h, p, l, nw), nw: t.u32(nw) };
}

describe('fastly_log', () => {
  it('prints each line to stdout with its endpoint name and reports every byte written', () => {
    const t = harness();
    const h = endpoint(t, 'decisions');
    expect(write(t, h, '{"decision":"allow"}')).toEqual({ status: OK, nw: 20 });
    expect(written).toEqual([{ fd: 1, text: 'decisions :: {"decision":"allow"}\n' }]);
  });

  it('drops one trailing newline, escapes newlines inside, and prints nothing for an empty line', () => {
    const t = harness();
    const h = endpoint(t, 'e');
    write(t, h, 'one\n');
    write(t, h, 'two\nlines');
    write(t, h, '');
    expect(written.map((w) => w.text)).toEqual(['e :: one\n', 'e :: two\\nlines\n']);
  });

  it('keeps every byte of a message that is not UTF-8', () => {
    const t = harness();
    write(t, endpoint(t, 'bin'), Uint8Array.from([0xff, 0x00, 0x41]));
    expect(Buffer.from(written[0]!.text, 'latin1')).toEqual(Buffer.from([...Buffer.from('bin :: '), 0xff, 0x00, 0x41, 0x0a]));
  });

  it('answers BADF for a handle that is not an endpoint', () => {
    const t = harness();
    expect(write(t, 77, 'x').status).toBe(BADF);
    expect(written).toEqual([]);
  });
});
