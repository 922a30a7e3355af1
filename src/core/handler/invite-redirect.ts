// An invitation followed as a link is answered with its allow token and a redirect to the same address
// without it: the invitation leaves the address bar (where it would be bookmarked and shared) and never
// reaches the origin's logs.
import { setRoomCookie } from '../request/index.js';
import { INVITE_PARAM } from '../tokens/index.js';
import { type Exchange, NO_STORE } from './exchange.js';

/** Null for what a redirect would change the meaning of (a POST) or an invitation that came in the header. */
export function inviteRedirect(exchange: Exchange, token: string | null): Response | null {
  const { request, url } = exchange;
  if ((request.method !== 'GET' && request.method !== 'HEAD') || !url.searchParams.has(INVITE_PARAM)) return null;
  const clean = new URL(url.href);
  clean.searchParams.delete(INVITE_PARAM);
  // One leading slash: `//evil.example/x` would be read as another site's address.
  const headers = new Headers({
    Location: `/${clean.pathname.replace(/^\/+/, '')}${clean.search}`,
    'Cache-Control': NO_STORE,
  });
  if (token !== null) headers.append('Set-Cookie', setRoomCookie(token, exchange.config, exchange.https));
  return new Response(null, { status: 303, headers });
}
