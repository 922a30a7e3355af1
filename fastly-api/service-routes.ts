// The routes for services: what `fastly compute publish`/`deploy` call on a new service and on one that
// exists (the service, its versions, domains, backends, resource links, HTTPS log endpoints, the package,
// activation, products), and what the project's tools read (`resource-link list`, `service-version list`).
import { apiError, apiTime, type Answer } from './config-store.js';
import type { Handler, Request, Route, State } from './route-types.js';
import type { Service, Version } from './services.js';

const seg = '([^/]+)';
const path = (...parts: string[]): RegExp => new RegExp(`^/${parts.join('/')}$`);
const V = ['service', seg, 'version', seg];

/** Version `n` of service `id` (a number: the CLI resolves `active` and `latest` itself), and the time. */
function at(s: State, r: Request, editable: boolean): { s: Service; v: Version; time: string } | Answer {
  const id = r.params[0]!;
  const raw = r.params[1]!;
  if (!/^[1-9]\d*$/.test(raw)) return apiError(400, 'Bad request', `version must be a number, not '${raw}'`);
  const n = Number(raw);
  const found = editable ? s.services.editable(id, n) : s.services.version(id, n);
  if ('status' in found) return found;
  return { ...found, time: apiTime(s.services.clock()) };
}

/** A handler on one version: reads use any version, writes only an editable one. */
const onVersion =
  (
    editable: boolean,
    run: (v: Version, where: { serviceId: string; version: number; time: string }, r: Request) => Answer,
  ): Handler =>
  (s, r) => {
    const found = at(s, r, editable);
    if ('status' in found) return found;
    return run(found.v, { serviceId: found.s.id, version: found.v.number, time: found.time }, r);
  };

/** The product routes Fastly's `enabled-products` API has, for the ones `[setup.products]` can enable. */
function productRoutes(): Route[] {
  const P = path('enabled-products', 'v1', seg, 'services', seg);
  const body = (product: string, id: string) => ({
    product: { id: product, object: 'product' },
    service: { id, object: 'service' },
    _links: { self: `/enabled-products/v1/${product}/services/${id}` },
  });
  const service = (s: State, id: string) => s.services.byId.get(id);
  return [
    {
      method: 'PUT',
      pattern: P,
      handler: (s, r) => {
        const [product, id] = r.params as [string, string];
        const svc = service(s, id);
        if (svc === undefined) return apiError(404, 'Record not found', `Cannot find service '${id}'`);
        svc.products.add(product);
        return { status: 200, body: body(product, id) };
      },
    },
    {
      method: 'GET',
      pattern: P,
      handler: (s, r) => {
        const [product, id] = r.params as [string, string];
        return service(s, id)?.products.has(product)
          ? { status: 200, body: body(product, id) }
          : { status: 400, body: { type: '', title: 'no product on service', status: 400, errors: null, detail: '' } };
      },
    },
    {
      method: 'DELETE',
      pattern: P,
      handler: (s, r) => {
        service(s, r.params[1]!)?.products.delete(r.params[0]!);
        return { status: 200, body: null };
      },
    },
  ];
}

export const serviceRoutes: Route[] = [
  {
    method: 'POST',
    pattern: path('service'),
    handler: (s, r) => s.services.createService(r.field('name'), r.field('type')),
  },
  { method: 'GET', pattern: path('service'), handler: (s) => s.services.list() },
  { method: 'GET', pattern: path('service', 'search'), handler: (s, r) => s.services.search(r.query.get('name')) },
  { method: 'GET', pattern: path('service', seg), handler: (s, r) => s.services.get(r.params[0]!) },
  { method: 'DELETE', pattern: path('service', seg), handler: (s, r) => s.services.deleteService(r.params[0]!) },
  { method: 'GET', pattern: path('service', seg, 'details'), handler: (s, r) => s.services.details(r.params[0]!) },
  { method: 'GET', pattern: path('service', seg, 'version'), handler: (s, r) => s.services.listVersions(r.params[0]!) },
  {
    method: 'GET',
    pattern: path(...V),
    handler: (s, r) => s.services.getVersion(r.params[0]!, Number.parseInt(r.params[1]!, 10)),
  },
  {
    method: 'PUT',
    pattern: path(...V),
    handler: (s, r) => s.services.updateVersion(r.params[0]!, Number.parseInt(r.params[1]!, 10), r.field('comment')),
  },
  {
    method: 'PUT',
    pattern: path(...V, 'clone'),
    handler: (s, r) => s.services.clone(r.params[0]!, Number.parseInt(r.params[1]!, 10)),
  },
  {
    method: 'PUT',
    pattern: path(...V, 'activate'),
    handler: (s, r) => s.services.activate(r.params[0]!, Number.parseInt(r.params[1]!, 10)),
  },
  // Domains.
  { method: 'GET', pattern: path(...V, 'domain'), handler: onVersion(false, (v, w) => v.parts.listDomains(w)) },
  {
    method: 'POST',
    pattern: path(...V, 'domain'),
    handler: onVersion(true, (v, w, r) => v.parts.createDomain(w, r.field('name'), r.field('comment'))),
  },
  {
    method: 'DELETE',
    pattern: path(...V, 'domain', seg),
    handler: onVersion(true, (v, _w, r) => v.parts.deleteDomain(r.params[2]!)),
  },
  // Backends.
  { method: 'GET', pattern: path(...V, 'backend'), handler: onVersion(false, (v, w) => v.parts.listBackends(w)) },
  {
    method: 'POST',
    pattern: path(...V, 'backend'),
    handler: onVersion(true, (v, w, r) => v.parts.createBackend(w, r.fields())),
  },
  {
    method: 'PUT',
    pattern: path(...V, 'backend', seg),
    handler: onVersion(true, (v, w, r) => v.parts.updateBackend(w, r.params[2]!, r.fields())),
  },
  // Resource links.
  { method: 'GET', pattern: path(...V, 'resource'), handler: onVersion(false, (v, w) => v.parts.listLinks(w)) },
  {
    method: 'POST',
    pattern: path(...V, 'resource'),
    handler: onVersion(true, (v, w, r) => v.parts.createLink(w, r.field('resource_id'), r.field('name'))),
  },
  {
    method: 'GET',
    pattern: path(...V, 'resource', seg),
    handler: onVersion(false, (v, w, r) => v.parts.getLink(w, r.params[2]!)),
  },
  {
    method: 'DELETE',
    pattern: path(...V, 'resource', seg),
    handler: onVersion(true, (v, _w, r) => v.parts.deleteLink(r.params[2]!)),
  },
  // HTTPS log endpoints (`fastly logging https create`).
  {
    method: 'GET',
    pattern: path(...V, 'logging', 'https'),
    handler: onVersion(false, (v, w) => v.parts.listLoggers(w)),
  },
  {
    method: 'POST',
    pattern: path(...V, 'logging', 'https'),
    handler: onVersion(true, (v, w, r) => v.parts.createLogger(w, r.fields())),
  },
  // The package.
  { method: 'GET', pattern: path(...V, 'package'), handler: onVersion(false, (v, w) => v.parts.getPackage(w)) },
  {
    method: 'PUT',
    pattern: path(...V, 'package'),
    handler: (s, r) => {
      const found = at(s, r, true);
      if ('status' in found) return found;
      const w = { serviceId: found.s.id, version: found.v.number, time: found.time };
      return found.v.parts.putPackage(w, r.file('package'), s.services.clock());
    },
  },
  ...productRoutes(),
];
