// A Compute package checked as Fastly's API checks an upload: what a package must hold, and the
// hashes `GET .../package` answers (files_hash is what the CLI compares to skip an unchanged deploy).
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { MAX_PACKAGE_BYTES, readPackage, untar } from '../../fastly-api/compute-package.js';
import { parseMultipart } from '../../fastly-api/multipart.js';

/** A ustar archive of `files` (name -> bytes), as `fastly compute build` writes one. */
function tarOf(files: Record<string, string | Buffer>): Buffer {
  const blocks: Buffer[] = [];
  for (const [name, content] of Object.entries(files)) {
    const data = Buffer.isBuffer(content) ? content : Buffer.from(content);
    const header = Buffer.alloc(512);
    header.write(name, 0, 'utf8');
    header.write(`${data.length.toString(8).padStart(11, '0')}\0`, 124, 'ascii');
    header.write('0', 156, 'ascii');
    header.write('ustar\0', 257, 'ascii');
    blocks.push(header, data, Buffer.alloc((512 - (data.length % 512)) % 512));
  }
  return Buffer.concat([...blocks, Buffer.alloc(1024)]);
}

const wasm = Buffer.concat([Buffer.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]), Buffer.from('module')]);
const toml =
  'manifest_version = 3\nname = "room"\ndescription = "a room"\nlanguage = "javascript"\nauthors = ["a@example.com"]\n';

describe('a Compute package upload', () => {
  it('reads the metadata from its fastly.toml and hashes it as Fastly does', () => {
    const archive = gzipSync(tarOf({ 'room/fastly.toml': toml, 'room/bin/main.wasm': wasm }));
    const p = readPackage(archive);
    expect(p.metadata).toMatchObject({
      name: 'room',
      description: 'a room',
      language: 'javascript',
      authors: ['a@example.com'],
      size: archive.length,
      hashsum: createHash('sha512').update(archive).digest('hex'),
    });
    // the files' contents in the order of their sorted names: bin/main.wasm before fastly.toml
    const files = createHash('sha512').update(wasm).update(toml).digest('hex');
    expect(p.metadata.files_hash).toBe(files);
    expect(p.wasm.equals(wasm)).toBe(true);
  });

  it('refuses what Fastly refuses: no fastly.toml, no module, not Wasm, not gzip, over 100 MB', () => {
    expect(() => readPackage(gzipSync(tarOf({ 'r/bin/main.wasm': wasm })))).toThrow(/no fastly.toml/);
    expect(() => readPackage(gzipSync(tarOf({ 'r/fastly.toml': toml })))).toThrow(/no bin\/main.wasm/);
    expect(() => readPackage(gzipSync(tarOf({ 'r/fastly.toml': toml, 'r/bin/main.wasm': 'text' })))).toThrow(
      /not a WebAssembly module/,
    );
    expect(() => readPackage(tarOf({ 'r/fastly.toml': toml }))).toThrow(/not gzip/);
    expect(() => readPackage(Buffer.alloc(MAX_PACKAGE_BYTES + 1))).toThrow(/100000001 bytes; the limit is 100000000/);
    expect(() => readPackage(gzipSync(tarOf({ 'r/fastly.toml': 'name = ', 'r/bin/main.wasm': wasm })))).toThrow(
      /fastly.toml does not parse/,
    );
  });

  it('reads a long name from a PAX header', () => {
    const long = `${'d/'.repeat(60)}main.wasm`;
    const body = ` path=${long}\n`;
    const pax = `${body.length + 3}${body}`; // the length counts its own three digits
    const header = tarOf({ PaxHeader: pax });
    header[156] = 'x'.charCodeAt(0);
    const tar = Buffer.concat([header.subarray(0, header.length - 1024), tarOf({ short: 'abc' })]);
    expect([...untar(tar).keys()]).toEqual([long]);
  });
});

describe('a multipart body', () => {
  it('gives each part by field name, the file bytes untouched', () => {
    const bytes = Buffer.from([0, 1, 2, 13, 10, 255]);
    const body = Buffer.concat([
      Buffer.from('--XyZ\r\nContent-Disposition: form-data; name="comment"\r\n\r\nhello\r\n'),
      Buffer.from('--XyZ\r\nContent-Disposition: form-data; name="package"; filename="p.tar.gz"\r\n'),
      Buffer.from('Content-Type: application/octet-stream\r\n\r\n'),
      bytes,
      Buffer.from('\r\n--XyZ--\r\n'),
    ]);
    const parts = parseMultipart(body, 'multipart/form-data; boundary=XyZ');
    expect(parts?.map((p) => [p.name, p.filename, p.data.toString('hex')])).toEqual([
      ['comment', undefined, Buffer.from('hello').toString('hex')],
      ['package', 'p.tar.gz', bytes.toString('hex')],
    ]);
    expect(parseMultipart(body, 'multipart/form-data')).toBeNull();
  });
});
