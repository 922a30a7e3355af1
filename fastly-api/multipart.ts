// A multipart/form-data body (the package upload): its parts by field name, the bytes untouched.

export interface Part {
  name: string;
  filename?: string;
  data: Buffer;
}

/** The parts of `body`, or null when the content type names no boundary or the body has none of it. */
export function parseMultipart(body: Buffer, contentType: string): Part[] | null {
  const m = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType);
  const boundary = m?.[1] ?? m?.[2];
  if (boundary === undefined) return null;
  const delimiter = Buffer.from(`--${boundary}`);
  const parts: Part[] = [];
  let at = body.indexOf(delimiter);
  if (at === -1) return null;
  for (;;) {
    at += delimiter.length;
    if (body.subarray(at, at + 2).toString() === '--') break;
    const headersEnd = body.indexOf('\r\n\r\n', at);
    if (headersEnd === -1) return null;
    const headers = body.subarray(at, headersEnd).toString('utf8');
    const next = body.indexOf(Buffer.concat([Buffer.from('\r\n'), delimiter]), headersEnd + 4);
    if (next === -1) return null;
    const disposition = /content-disposition:([^\r\n]*)/i.exec(headers)?.[1] ?? '';
    const name = /\bname="([^"]*)"/i.exec(disposition)?.[1];
    const filename = /\bfilename="([^"]*)"/i.exec(disposition)?.[1];
    if (name !== undefined)
      parts.push({ name, ...(filename === undefined ? {} : { filename }), data: body.subarray(headersEnd + 4, next) });
    at = next + 2;
  }
  return parts;
}
