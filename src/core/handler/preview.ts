// A preview link (docs/operating.md, "Previewing a page"), answered by the room itself at its reserved
// path before any routing or rule could send it on: never the origin's. The link's signature, expiry
// and room are checked, then the page it names is rendered from made-up figures in the language the
// request asks for (`wr_lang`, as on any page). No cookie, no token, no decision: one logged line.
// Store reads: the routing and the room's four settings values, then the page's template and the
// operator's strings (at most eight), and the invite key from the Secret Store.
import { answerLanguage, escapeHtml, variantPageKey } from '../answer/index.js';
import { decisionLine, PREVIEW_DECISION } from '../log/index.js';
import { renderPreview } from '../pages/index.js';
import { readRouting } from '../routing/index.js';
import { readRoomConfig } from '../settings/index.js';
import {
  checkPreview,
  createKeyRing,
  hmacKey,
  PREVIEW_PARAM,
  type PreviewClaims,
  type PreviewRefusal,
  proofChallenge,
  type ProofChallenge,
} from '../tokens/index.js';
import type { Config, PreviewReason } from '../types.js';
import { type Arrival, NO_STORE, wantsJson } from './exchange.js';
import { unexpectedFailure } from './unexpected.js';

export { PREVIEW_PATH } from '../tokens/index.js';

/** Every preview answer, page or refusal: never kept, never indexed, and its scripts reach nothing. */
const HEADERS = {
  'Cache-Control': NO_STORE,
  'X-Robots-Tag': 'noindex, nofollow',
  'Content-Security-Policy': "connect-src 'none'; form-action 'none'",
  'Referrer-Policy': 'no-referrer',
};

/** What each refusal tells whoever opened the link. */
const REFUSALS: Record<PreviewRefusal, string> = {
  preview_malformed: 'This is not a preview link, or it was cut short: copy the whole link.',
  preview_unknown_key:
    'This preview link was signed with an invite key this service does not have: send it the key (npm run keys -- add-invite KID --fastly-service SERVICE_ID), or make the link with one it has (--kid).',
  preview_forged: 'This preview link was not signed by a key of this service, or it was changed after signing.',
  preview_expired: 'This preview link has expired: make a new one (npm run preview).',
  preview_unknown_room:
    'This preview link names a room this service does not have (npm run tune -- --show lists them).',
};

export async function previewAnswer(arrival: Arrival): Promise<Response> {
  const { deps, url, nowMs } = arrival;
  const keys = createKeyRing((kid) => deps.stores.key(kid), deps.diag, deps.memory);
  const checked = await checkPreview(url.searchParams.get(PREVIEW_PARAM), Math.floor(nowMs / 1000), (kid) =>
    keys.inviteKey(kid),
  );
  if (!checked.ok) return refused(arrival, checked.reason, null);
  const { claims } = checked;
  if (!(readRouting(deps).routing?.roomIds.includes(claims.room) ?? false))
    return refused(arrival, 'preview_unknown_room', claims);
  const { config } = readRoomConfig(deps, claims.room);
  try {
    return await shown(arrival, claims, config);
  } catch (error) {
    // A bug shows an error, never anything else: a preview opens nothing.
    unexpectedFailure(deps, 'previewing', error);
    return answer(arrival, 500, 'text/plain; charset=utf-8', 'The preview could not be made; the room logged why.\n');
  }
}

async function shown(arrival: Arrival, claims: PreviewClaims, config: Config): Promise<Response> {
  const { deps, url, request, nowMs } = arrival;
  // The language as any page chooses it; the cookie a chosen language would set is left out.
  const { language } = answerLanguage({
    config,
    url,
    cookieHeader: arrival.cookieHeader,
    acceptLanguage: request.headers.get('accept-language'),
    https: url.protocol === 'https:',
    deps,
  });
  const html = renderPreview({
    claims,
    config,
    language,
    nowMs,
    // A variant's waiting page under its own key (one read, as a visitor's); not stored: the built-in page.
    storedPage: (name) => deps.stores.page(variantPageKey(name, config.pages, claims.variant ?? null)),
    diag: deps.diag,
    proof: claims.proof === true ? await madeUpProof(config) : null,
  });
  log(arrival, config, {
    room: claims.room,
    reason: PREVIEW_DECISION,
    claims,
    status: 200,
    lang: language.strings.tag,
  });
  return answer(arrival, 200, 'text/html; charset=utf-8', html);
}

/** A puzzle of the room's difficulty under a key of no service: the page's solver works at it, and nothing checks it. */
async function madeUpProof(config: Config): Promise<ProofChallenge> {
  return proofChallenge('preview', await hmacKey(new Uint8Array(32)), config.proofSeconds);
}

function refused(arrival: Arrival, reason: PreviewRefusal, claims: PreviewClaims | null): Response {
  // The service-wide settings say where the line goes: one lookup, whatever the link named.
  const { config } = readRoomConfig(arrival.deps, null);
  log(arrival, config, { room: claims?.room ?? null, reason, claims, status: 403, lang: null });
  const message = REFUSALS[reason];
  return wantsJson(arrival.request)
    ? answer(arrival, 403, 'application/json; charset=utf-8', JSON.stringify({ preview: { reason, message } }))
    : answer(
        arrival,
        403,
        'text/html; charset=utf-8',
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
          `<title>Preview refused</title></head><body><h1>Preview refused</h1><p>${escapeHtml(message)}</p>` +
          `<p><code>${reason}</code></p></body></html>`,
      );
}

function answer(arrival: Arrival, status: number, contentType: string, body: string): Response {
  const head = arrival.request.method === 'HEAD';
  return new Response(head ? null : body, { status, headers: { ...HEADERS, 'Content-Type': contentType } });
}

interface PreviewLogged {
  room: string | null;
  reason: PreviewReason;
  claims: PreviewClaims | null;
  status: number;
  lang: string | null;
}

/** The preview's line: always logged (never sampled), never a visitor's. */
function log(arrival: Arrival, config: Config, p: PreviewLogged): void {
  const endpoint = config.logEndpoint;
  if (endpoint === null) return;
  const line = decisionLine({
    nowMs: arrival.nowMs,
    pop: arrival.deps.pop || 'local',
    room: p.room,
    rule: null,
    waitPeriodSeconds: config.waitPeriodSeconds,
    decision: PREVIEW_DECISION,
    outcome: PREVIEW_DECISION,
    reason: p.reason,
    kid: null,
    method: arrival.request.method,
    path: arrival.url.pathname,
    identity: null,
    status: p.status,
    lang: p.lang,
    preview: p.claims?.page ?? null,
  });
  try {
    arrival.deps.log(endpoint, line);
  } catch (error) {
    arrival.deps.diag(`log_endpoint "${endpoint}": could not log (${String(error)})`);
  }
}
