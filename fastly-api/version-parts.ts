// What one service version holds: domains, backends, resource links (which store the code opens under
// which name), HTTPS log endpoints and the Compute package. Each is kept as the API was given it and
// answered in go-fastly's shapes; whether the version may still change is the caller's check
// (services.ts `editable`).
import { apiError, apiTime, newId, type Answer } from './config-store.js';
import { PackageError, readPackage, type ComputePackage } from './compute-package.js';

export interface ResourceLink {
  id: string;
  /** The name the service's code opens the store by. */
  name: string;
  resource_id: string;
  resource_type: 'config' | 'secret-store' | 'kv-store' | 'acl';
}

/** A store's kind and name, for a link to it. */
export interface StoreKind {
  type: ResourceLink['resource_type'];
  name: string;
}

/** A backend or log endpoint: the fields it was created with (strings, as a form gives them). */
export type Fields = Record<string, string>;

interface Where {
  serviceId: string;
  version: number;
  /** The stand-in's clock, as the API's timestamp. */
  time: string;
}

const NAME = /^[A-Za-z0-9_.-][A-Za-z0-9_. -]{0,254}$/;
const missing = (what: string): Answer => apiError(404, 'Record not found', what);
const duplicate = (what: string): Answer => apiError(409, 'Duplicate record', what);

/** Backend fields that are numbers or booleans in the API's answers. */
const NUMBERS = new Set(['port', 'connect_timeout', 'first_byte_timeout', 'between_bytes_timeout', 'weight', 'period']);
const BOOLEANS = new Set(['use_ssl', 'auto_loadbalance', 'ssl_check_cert']);

function typed(fields: Fields): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(fields)) {
    if (NUMBERS.has(k) && /^\d+$/.test(v)) out[k] = Number(v);
    else if (BOOLEANS.has(k)) out[k] = v === 'true' || v === '1';
    else out[k] = v;
  }
  return out;
}

export class VersionParts {
  domains = new Map<string, { comment: string }>();
  backends = new Map<string, Fields>();
  links: ResourceLink[] = [];
  /** HTTPS log endpoints by name. */
  loggers = new Map<string, Fields>();
  pkg: (ComputePackage & { id: string; uploaded: string }) | null = null;

  constructor(private readonly kind: (resourceId: string) => StoreKind | null) {}

  clone(): VersionParts {
    const c = new VersionParts(this.kind);
    c.domains = new Map(this.domains);
    c.backends = new Map([...this.backends].map(([k, v]) => [k, { ...v }]));
    c.links = this.links.map((l) => ({ ...l, id: newId() }));
    c.loggers = new Map([...this.loggers].map(([k, v]) => [k, { ...v }]));
    c.pkg = this.pkg;
    return c;
  }

  private stamp(w: Where): Record<string, unknown> {
    return { service_id: w.serviceId, version: w.version, created_at: w.time, updated_at: w.time, deleted_at: null };
  }

  // ---- domains ----

  domainJson(name: string, w: Where): Record<string, unknown> {
    return { name, comment: this.domains.get(name)?.comment ?? '', ...this.stamp(w) };
  }

  listDomains(w: Where): Answer {
    return { status: 200, body: [...this.domains.keys()].map((n) => this.domainJson(n, w)) };
  }

  createDomain(w: Where, name: string | undefined, comment = ''): Answer {
    if (name === undefined || !/^(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+$/i.test(name))
      return apiError(400, 'Bad request', `name must be a domain name, not '${name ?? ''}'`);
    if (this.domains.has(name)) return duplicate(`domain '${name}' is on this version already`);
    this.domains.set(name, { comment });
    return { status: 200, body: this.domainJson(name, w) };
  }

  deleteDomain(name: string): Answer {
    return this.domains.delete(name) ? { status: 200, body: { status: 'ok' } } : missing(`no domain '${name}'`);
  }

  // ---- backends ----

  backendJson(name: string, w: Where): Record<string, unknown> {
    return { ...typed(this.backends.get(name) ?? {}), name, ...this.stamp(w) };
  }

  listBackends(w: Where): Answer {
    return { status: 200, body: [...this.backends.keys()].map((n) => this.backendJson(n, w)) };
  }

  createBackend(w: Where, fields: Fields): Answer {
    const name = fields.name;
    if (name === undefined || !NAME.test(name)) return apiError(400, 'Bad request', 'name is required');
    if (fields.address === undefined || fields.address === '')
      return apiError(400, 'Bad request', `backend '${name}' needs an address`);
    if (fields.port !== undefined && !(/^\d+$/.test(fields.port) && Number(fields.port) <= 65535))
      return apiError(400, 'Bad request', `port must be 0-65535, not '${fields.port}'`);
    if (this.backends.has(name)) return duplicate(`backend '${name}' is on this version already`);
    this.backends.set(name, { port: '80', ...fields });
    return { status: 200, body: this.backendJson(name, w) };
  }

  updateBackend(w: Where, name: string, fields: Fields): Answer {
    const old = this.backends.get(name);
    if (old === undefined) return missing(`no backend '${name}'`);
    const next = { ...old, ...fields };
    this.backends.delete(name);
    this.backends.set(next.name ?? name, next);
    return { status: 200, body: this.backendJson(next.name ?? name, w) };
  }

  // ---- resource links ----

  linkJson(l: ResourceLink, w: Where): Record<string, unknown> {
    return { ...l, href: null, ...this.stamp(w) };
  }

  listLinks(w: Where): Answer {
    return { status: 200, body: this.links.map((l) => this.linkJson(l, w)) };
  }

  getLink(w: Where, id: string): Answer {
    const l = this.links.find((x) => x.id === id);
    return l === undefined ? missing(`no resource link '${id}'`) : { status: 200, body: this.linkJson(l, w) };
  }

  /** `POST .../resource` (form: resource_id, name): the store must exist; the name defaults to its own. */
  createLink(w: Where, resourceId: string | undefined, name: string | undefined): Answer {
    const store = resourceId === undefined ? null : this.kind(resourceId);
    if (store === null) return apiError(400, 'Bad request', `resource_id '${resourceId ?? ''}' is no store`);
    const linkName = name ?? store.name;
    if (this.links.some((l) => l.name === linkName))
      return duplicate(`a resource is linked as '${linkName}' on this version already`);
    const l: ResourceLink = { id: newId(), name: linkName, resource_id: resourceId!, resource_type: store.type };
    this.links.push(l);
    return { status: 200, body: this.linkJson(l, w) };
  }

  deleteLink(id: string): Answer {
    const at = this.links.findIndex((l) => l.id === id);
    if (at === -1) return missing(`no resource link '${id}'`);
    this.links.splice(at, 1);
    return { status: 200, body: { status: 'ok' } };
  }

  // ---- HTTPS log endpoints ----

  loggerJson(name: string, w: Where): Record<string, unknown> {
    return { ...(this.loggers.get(name) ?? {}), name, ...this.stamp(w) };
  }

  listLoggers(w: Where): Answer {
    return { status: 200, body: [...this.loggers.keys()].map((n) => this.loggerJson(n, w)) };
  }

  createLogger(w: Where, fields: Fields): Answer {
    const name = fields.name;
    if (name === undefined || !NAME.test(name)) return apiError(400, 'Bad request', 'name is required');
    if (fields.url === undefined || !/^https:\/\//.test(fields.url))
      return apiError(400, 'Bad request', `url must be an https:// address, not '${fields.url ?? ''}'`);
    if (this.loggers.has(name)) return duplicate(`log endpoint '${name}' is on this version already`);
    this.loggers.set(name, { method: 'POST', content_type: '', format: '%h %l %u %t "%r" %>s %b', ...fields });
    return { status: 200, body: this.loggerJson(name, w) };
  }

  // ---- the package ----

  packageJson(w: Where): Record<string, unknown> {
    const p = this.pkg;
    return {
      id: p?.id ?? '',
      service_id: w.serviceId,
      version: w.version,
      metadata: p === null ? {} : p.metadata,
      created_at: p?.uploaded ?? w.time,
      updated_at: p?.uploaded ?? w.time,
      deleted_at: null,
    };
  }

  getPackage(w: Where): Answer {
    return this.pkg === null
      ? missing(`version ${w.version} has no package`)
      : { status: 200, body: this.packageJson(w) };
  }

  /** `PUT .../package` (multipart, field `package`): checked as Fastly checks an upload. */
  putPackage(w: Where, archive: Buffer | undefined, now: number): Answer {
    if (archive === undefined) return apiError(400, 'Bad request', 'the upload has no `package` file field');
    try {
      this.pkg = { ...readPackage(archive), id: newId(), uploaded: apiTime(now) };
    } catch (error) {
      if (error instanceof PackageError) return apiError(400, 'Bad request', error.message);
      throw error;
    }
    return { status: 200, body: this.packageJson(w) };
  }
}
