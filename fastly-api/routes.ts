// Which API path does what: the route table of the stand-in, one line per endpoint the project's
// tools reach through the Fastly CLI (or, for the bulk PATCH, over HTTPS directly).
import { apiError, type Answer } from './config-store.js';
import type { Handler, Route } from './route-types.js';
import { serviceRoutes } from './service-routes.js';

export type { Handler, Request, Route, State } from './route-types.js';

const seg = '([^/]+)';
const path = (...parts: string[]): RegExp => new RegExp(`^/${parts.join('/')}$`);

export const routes: Route[] = [
  // The account endpoint: OpenID Connect metadata the CLI fetches before any command.
  {
    method: 'GET',
    pattern: path('realms', 'fastly', '.well-known', 'openid-configuration'),
    free: true,
    handler: (_s, r) => ({
      status: 200,
      body: {
        issuer: `${r.base}/realms/fastly`,
        authorization_endpoint: `${r.base}/realms/fastly/protocol/openid-connect/auth`,
        token_endpoint: `${r.base}/realms/fastly/protocol/openid-connect/token`,
        jwks_uri: `${r.base}/realms/fastly/protocol/openid-connect/certs`,
      },
    }),
  },
  // Who the token is (`fastly auth add` / `auth login` check a token with both before storing it, so
  // an operator without FASTLY_API_TOKEN, whose CLI has a stored token, can be played).
  {
    method: 'GET',
    pattern: path('current_user'),
    handler: () => ({
      status: 200,
      body: {
        id: 'standin-user',
        login: 'operator@example.com',
        name: 'Stand-in Operator',
        customer_id: 'standin-customer',
        role: 'superuser',
      },
    }),
  },
  {
    method: 'GET',
    pattern: path('tokens', 'self'),
    handler: () => ({
      status: 200,
      body: {
        id: 'standin-token-id',
        user_id: 'standin-user',
        customer_id: 'standin-customer',
        name: 'stand-in',
        scope: 'global',
        services: [],
        created_at: '2026-01-01T00:00:00Z',
        expires_at: null,
        last_used_at: null,
      },
    }),
  },
  // Config Stores (`fastly config-store ...`).
  {
    method: 'GET',
    pattern: path('resources', 'stores', 'config'),
    handler: (s, r) => s.config.list(r.query.get('name') ?? undefined),
  },
  {
    method: 'POST',
    pattern: path('resources', 'stores', 'config'),
    handler: (s, r) => s.config.createStore(r.field('name')),
  },
  {
    method: 'GET',
    pattern: path('resources', 'stores', 'config', seg),
    handler: (s, r) => s.config.describe(r.params[0]!),
  },
  {
    method: 'GET',
    pattern: path('resources', 'stores', 'config', seg, 'info'),
    handler: (s, r) => s.config.info(r.params[0]!),
  },
  // Config Store items (`fastly config-store-entry ...`; the bulk PATCH has no CLI command).
  {
    method: 'GET',
    pattern: path('resources', 'stores', 'config', seg, 'items'),
    handler: (s, r) => s.config.listItems(r.params[0]!),
  },
  {
    method: 'PATCH',
    pattern: path('resources', 'stores', 'config', seg, 'items'),
    handler: (s, r) => s.config.batch(r.params[0]!, r.body),
  },
  {
    method: 'POST',
    pattern: path('resources', 'stores', 'config', seg, 'item'),
    handler: (s, r) => s.config.setItem(r.params[0]!, r.field('item_key'), r.field('item_value'), 'create'),
  },
  {
    method: 'GET',
    pattern: path('resources', 'stores', 'config', seg, 'item', seg),
    handler: (s, r) => s.config.getItem(r.params[0]!, r.params[1]!),
  },
  {
    method: 'PUT',
    pattern: path('resources', 'stores', 'config', seg, 'item', seg),
    handler: (s, r) => s.config.setItem(r.params[0]!, r.params[1]!, r.field('item_value'), 'upsert'),
  },
  {
    method: 'PATCH',
    pattern: path('resources', 'stores', 'config', seg, 'item', seg),
    handler: (s, r) => s.config.setItem(r.params[0]!, r.params[1]!, r.field('item_value'), 'update'),
  },
  {
    method: 'DELETE',
    pattern: path('resources', 'stores', 'config', seg, 'item', seg),
    handler: (s, r) => s.config.deleteItem(r.params[0]!, r.params[1]!),
  },
  // Secret Stores (`fastly secret-store-entry ...`), with the client-side encryption keys.
  {
    method: 'GET',
    pattern: path('resources', 'stores', 'secret', 'signing-key'),
    handler: (s) => s.secrets.signingKey(),
  },
  {
    method: 'POST',
    pattern: path('resources', 'stores', 'secret', 'client-key'),
    handler: (s) => s.secrets.clientKey(),
  },
  { method: 'GET', pattern: path('resources', 'stores', 'secret'), handler: (s, r) => s.secrets.list(r.query) },
  { method: 'POST', pattern: path('resources', 'stores', 'secret'), handler: (s, r) => s.secrets.createStore(r.body) },
  {
    method: 'GET',
    pattern: path('resources', 'stores', 'secret', seg),
    handler: (s, r) => s.secrets.describe(r.params[0]!),
  },
  {
    method: 'GET',
    pattern: path('resources', 'stores', 'secret', seg, 'secrets'),
    handler: (s, r) => s.secrets.listSecrets(r.params[0]!, r.query),
  },
  ...['POST', 'PUT', 'PATCH'].map((method) => ({
    method,
    pattern: path('resources', 'stores', 'secret', seg, 'secrets'),
    handler: ((s, r) => s.secrets.putSecret(r.params[0]!, method, r.body)) as Handler,
  })),
  {
    method: 'GET',
    pattern: path('resources', 'stores', 'secret', seg, 'secrets', seg),
    handler: (s, r) => s.secrets.getSecret(r.params[0]!, r.params[1]!),
  },
  {
    method: 'DELETE',
    pattern: path('resources', 'stores', 'secret', seg, 'secrets', seg),
    handler: (s, r) => s.secrets.deleteSecret(r.params[0]!, r.params[1]!),
  },
  // Compute ACLs (`fastly compute acl ...`).
  { method: 'GET', pattern: path('resources', 'acls'), handler: (s) => s.acls.list() },
  { method: 'POST', pattern: path('resources', 'acls'), handler: (s, r) => s.acls.createAcl(r.body) },
  { method: 'GET', pattern: path('resources', 'acls', seg), handler: (s, r) => s.acls.describe(r.params[0]!) },
  { method: 'DELETE', pattern: path('resources', 'acls', seg), handler: (s, r) => s.acls.deleteAcl(r.params[0]!) },
  {
    method: 'GET',
    pattern: path('resources', 'acls', seg, 'entries'),
    handler: (s, r) => s.acls.listEntries(r.params[0]!),
  },
  {
    method: 'PATCH',
    pattern: path('resources', 'acls', seg, 'entries'),
    handler: (s, r) => s.acls.update(r.params[0]!, r.body),
  },
  // The log stream (`fastly log-tail`): turning it on spends a call; the polls are a stream.
  {
    method: 'POST',
    pattern: path('service', seg, 'log_stream', 'managed', 'instance_output'),
    handler: (s, r) => s.logs.enable(r.params[0]!),
  },
  {
    method: 'GET',
    pattern: path('service', seg, 'log_stream', 'managed', 'instance_output'),
    free: true,
    handler: (s, r, res) => {
      const id = r.params[0]!;
      s.logs.poll(
        id,
        res,
        (from) => `${r.base}/service/${encodeURIComponent(id)}/log_stream/managed/instance_output?from=${from}`,
        r.headers,
      );
      return 'streamed';
    },
  },
  ...serviceRoutes,
];

/** The route for a method and path, with its path parameters (decoded), or null. */
export function match(method: string, pathname: string): { route: Route; params: string[] } | null {
  for (const route of routes) {
    if (route.method !== method) continue;
    const m = route.pattern.exec(pathname);
    if (m !== null) return { route, params: m.slice(1).map((p) => decodeURIComponent(p)) };
  }
  return null;
}

export const noRoute = (method: string, pathname: string): Answer =>
  apiError(404, 'Record not found', `the stand-in does not serve ${method} ${pathname}`);
