// A Compute package as Fastly's API takes it: a gzipped tar holding `fastly.toml` and `bin/main.wasm`
// (under one top directory, as `fastly compute build` makes it), at most 100,000,000 bytes. The
// stand-in checks an upload as the API does, and keeps what `GET .../package` answers: the metadata
// read from the package's fastly.toml, its size, `hashsum` (SHA-512 of the archive) and `files_hash`
// (SHA-512 of the files' contents in the order of their sorted names, which the CLI compares to skip an
// unchanged upload).
import { createHash } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { parse as parseToml } from 'smol-toml';

/** Fastly's limit on a package, bytes (the CLI refuses a larger one before uploading, as the API does). */
export const MAX_PACKAGE_BYTES = 100_000_000;

export interface PackageMetadata {
  name: string;
  description: string;
  authors: string[];
  language: string;
  size: number;
  hashsum: string;
  files_hash: string;
}

export interface ComputePackage {
  metadata: PackageMetadata;
  /** The files, by their name in the archive (the top directory included). */
  files: Map<string, Buffer>;
  /** The module, bin/main.wasm. */
  wasm: Buffer;
  /** The archive as uploaded. */
  archive: Buffer;
}

export class PackageError extends Error {
  override name = 'PackageError';
}

const text = (block: Buffer, from: number, length: number): string => {
  const raw = block.subarray(from, from + length);
  const end = raw.indexOf(0);
  return raw.subarray(0, end === -1 ? raw.length : end).toString('utf8');
};

/** A PAX extended header's records: `LEN key=value\n` each. */
function paxRecords(data: Buffer): Record<string, string> {
  const out: Record<string, string> = {};
  let at = 0;
  while (at < data.length) {
    const space = data.indexOf(0x20, at);
    const length = Number(data.subarray(at, space).toString('ascii'));
    if (space === -1 || !Number.isInteger(length) || length <= 0) break;
    const record = data.subarray(space + 1, at + length - 1).toString('utf8');
    const eq = record.indexOf('=');
    if (eq > 0) out[record.slice(0, eq)] = record.slice(eq + 1);
    at += length;
  }
  return out;
}

/** The regular files of a tar archive (ustar, with PAX or GNU long names), name -> bytes. */
export function untar(tar: Buffer): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  let at = 0;
  let longName: string | null = null;
  while (at + 512 <= tar.length) {
    const header = tar.subarray(at, at + 512);
    if (header.every((b) => b === 0)) break;
    const size = Number.parseInt(text(header, 124, 12).trim() || '0', 8);
    if (!Number.isSafeInteger(size) || size < 0) throw new PackageError(`a tar header at byte ${at} has no size`);
    const type = String.fromCharCode(header[156] ?? 0x30);
    const data = tar.subarray(at + 512, at + 512 + size);
    if (data.length < size) throw new PackageError('the tar archive ends inside a file');
    const prefix = text(header, 345, 155);
    const name = longName ?? (prefix === '' ? text(header, 0, 100) : `${prefix}/${text(header, 0, 100)}`);
    longName = null;
    if (type === 'x') longName = paxRecords(data).path ?? null;
    else if (type === 'L') longName = data.toString('utf8').replace(/\0+$/, '');
    else if (type === '0' || type === '\0') files.set(name.replace(/^\.\//, ''), data);
    at += 512 + Math.ceil(size / 512) * 512;
  }
  return files;
}

/** The one file named `rest` under the archive's top directory (`NAME/rest`), or under none. */
function fileAt(files: Map<string, Buffer>, rest: string): Buffer | undefined {
  for (const [name, bytes] of files) {
    const parts = name.split('/');
    if (parts.join('/') === rest || parts.slice(1).join('/') === rest) return bytes;
  }
  return undefined;
}

const sha512 = (bytes: Buffer): string => createHash('sha512').update(bytes).digest('hex');

/** Reads an upload as Fastly checks it; throws PackageError saying what is wrong. */
export function readPackage(archive: Buffer): ComputePackage {
  if (archive.length > MAX_PACKAGE_BYTES)
    throw new PackageError(`the package is ${archive.length} bytes; the limit is ${MAX_PACKAGE_BYTES}`);
  let tar: Buffer;
  try {
    tar = gunzipSync(archive);
  } catch {
    throw new PackageError('the package is not gzip (a .tar.gz from `fastly compute build`)');
  }
  const files = untar(tar);
  const manifest = fileAt(files, 'fastly.toml');
  const wasm = fileAt(files, 'bin/main.wasm');
  if (manifest === undefined) throw new PackageError('the package holds no fastly.toml');
  if (wasm === undefined) throw new PackageError('the package holds no bin/main.wasm');
  if (!wasm.subarray(0, 4).equals(Buffer.from([0, 0x61, 0x73, 0x6d])))
    throw new PackageError('bin/main.wasm is not a WebAssembly module');
  let toml: Record<string, unknown>;
  try {
    toml = parseToml(manifest.toString('utf8')) as Record<string, unknown>;
  } catch (error) {
    throw new PackageError(`the package's fastly.toml does not parse: ${(error as Error).message}`);
  }
  const str = (v: unknown): string => (typeof v === 'string' ? v : '');
  const contents = [...files.keys()].sort().map((name) => files.get(name)!);
  return {
    metadata: {
      name: str(toml.name),
      description: str(toml.description),
      authors: Array.isArray(toml.authors) ? toml.authors.map(str) : [],
      language: str(toml.language),
      size: archive.length,
      hashsum: sha512(archive),
      files_hash: sha512(Buffer.concat(contents)),
    },
    files,
    wasm,
    archive,
  };
}
