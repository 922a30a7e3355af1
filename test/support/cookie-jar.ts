// A small cookie jar for the tests that play an app: Node's fetch keeps no cookies, where a browser or
// a phone's HTTP stack does. One host's cookies, by name; Max-Age=0 or an empty value drops one.

export class CookieJar {
  readonly cookies = new Map<string, string>();

  /** The Cookie header for the cookies held, null when none. */
  header(): string | null {
    return this.cookies.size === 0 ? null : [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  /** Keeps what `response` sets. */
  keep(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const at = pair!.indexOf('=');
      const name = pair!.slice(0, at).trim();
      const value = pair!.slice(at + 1).trim();
      const gone = attributes.some((a) => /^\s*max-age\s*=\s*0\s*$/i.test(a));
      if (gone || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  /** `inner` (default: the global fetch) sending and keeping this jar's cookies. */
  fetch(inner: (request: Request) => Promise<Response> = (r) => globalThis.fetch(r)): typeof fetch {
    return async (input, init) => {
      const request = new Request(input, init);
      const cookie = this.header();
      if (cookie !== null) request.headers.set('cookie', cookie);
      const response = await inner(request);
      this.keep(response);
      return response;
    };
  }
}
