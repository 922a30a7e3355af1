// Services and their versions, as `fastly compute publish`/`deploy`, `fastly service-version` and the
// project's tools reach them: a Compute service is created with an editable version 1; a version holds
// domains, backends, resource links, log endpoints and a package (version-parts.ts); activating one locks
// it (and an active or once-active version can no longer change: `clone` makes an editable copy, as
// Fastly's API does). Shapes of `POST /service`, `/service/{id}/details`, `/service/{id}/version[/{n}]`.
import { apiError, apiTime, newId, type Answer } from './config-store.js';
import { VersionParts, type ResourceLink, type StoreKind } from './version-parts.js';

export type { ResourceLink } from './version-parts.js';

export interface Version {
  number: number;
  comment: string;
  active: boolean;
  locked: boolean;
  created: string;
  updated: string;
  parts: VersionParts;
}

export interface Service {
  id: string;
  name: string;
  type: 'wasm' | 'vcl';
  created: string;
  versions: Version[];
  /** Products enabled on the service (`bot_management`, ...). */
  products: Set<string>;
}

const notFound = (what: string): Answer => apiError(404, 'Record not found', what);

export class Services {
  readonly byId = new Map<string, Service>();

  /** `kind` says what a store id is (for a resource link's type), null when no store has it. */
  constructor(
    private readonly now: () => number,
    private readonly kind: (resourceId: string) => StoreKind | null = () => null,
  ) {}

  /** The stand-in's clock, ms since the epoch. */
  clock(): number {
    return this.now();
  }

  /** A service with one active version linking `links` (name -> store): a seed, without a package. */
  create(id: string, links: Omit<ResourceLink, 'id'>[] = [], name = id): Service {
    const s = this.newService(id, name, 'wasm');
    const v = this.newVersion(s);
    for (const l of links) v.parts.links.push({ id: newId(), ...l });
    v.active = true;
    v.locked = true;
    return s;
  }

  /** The service `id` and its version `n` ('active' and 'latest' too), or the 404 to answer. */
  version(id: string, n: number | 'active' | 'latest'): { s: Service; v: Version } | Answer {
    const s = this.byId.get(id);
    if (s === undefined) return notFound(`Cannot find service '${id}'`);
    const v =
      n === 'active'
        ? s.versions.find((x) => x.active)
        : n === 'latest'
          ? s.versions[s.versions.length - 1]
          : s.versions[n - 1];
    return v === undefined ? notFound(`Cannot find version ${n} of service '${id}'`) : { s, v };
  }

  /** Which store a version reaches under each link name, for the room's stores (rehearsal, tests). */
  links(id: string, n: number | 'active' | 'latest' = 'active'): ResourceLink[] {
    const found = this.version(id, n);
    return 'status' in found ? [] : found.v.parts.links;
  }

  private newService(id: string, name: string, type: Service['type']): Service {
    const s: Service = { id, name, type, created: apiTime(this.now()), versions: [], products: new Set() };
    this.byId.set(id, s);
    return s;
  }

  private newVersion(s: Service, from?: Version): Version {
    const t = apiTime(this.now());
    const v: Version = {
      number: s.versions.length + 1,
      comment: '',
      active: false,
      locked: false,
      created: t,
      updated: t,
      parts: from === undefined ? new VersionParts(this.kind) : from.parts.clone(),
    };
    s.versions.push(v);
    return v;
  }

  versionJson(s: Service, v: Version): Record<string, unknown> {
    return {
      number: v.number,
      service_id: s.id,
      comment: v.comment,
      active: v.active,
      locked: v.locked,
      deployed: v.active,
      staging: false,
      testing: false,
      created_at: v.created,
      updated_at: v.updated,
      deleted_at: null,
    };
  }

  private serviceJson(s: Service): Record<string, unknown> {
    const active = s.versions.find((v) => v.active);
    return {
      id: s.id,
      name: s.name,
      type: s.type,
      comment: '',
      customer_id: 'standin-customer',
      created_at: s.created,
      updated_at: s.created,
      deleted_at: null,
      version: active?.number ?? 0,
      versions: s.versions.map((v) => this.versionJson(s, v)),
    };
  }

  // ---- services ----

  /** `POST /service` (form: name, type): a service with an editable version 1. */
  createService(name: string | undefined, type: string | undefined): Answer {
    if (name === undefined || name === '') return apiError(400, 'Bad request', 'name is required');
    if (type !== undefined && type !== 'wasm' && type !== 'vcl')
      return apiError(400, 'Bad request', `type must be wasm or vcl, not ${type}`);
    if ([...this.byId.values()].some((s) => s.name === name))
      return apiError(409, 'Duplicate record', `a service named '${name}' exists already`);
    const s = this.newService(newId(), name, type === 'vcl' ? 'vcl' : 'wasm');
    this.newVersion(s);
    return { status: 200, body: this.serviceJson(s) };
  }

  search(name: string | null): Answer {
    const s = [...this.byId.values()].find((x) => x.name === name);
    return s === undefined
      ? notFound(`Cannot find service named '${name}'`)
      : { status: 200, body: this.serviceJson(s) };
  }

  get(id: string): Answer {
    const s = this.byId.get(id);
    return s === undefined ? notFound(`Cannot find service '${id}'`) : { status: 200, body: this.serviceJson(s) };
  }

  list(): Answer {
    return { status: 200, body: [...this.byId.values()].map((s) => this.serviceJson(s)) };
  }

  /** `DELETE /service/{id}`: refused while a version is active, as Fastly does. */
  deleteService(id: string): Answer {
    const s = this.byId.get(id);
    if (s === undefined) return notFound(`Cannot find service '${id}'`);
    if (s.versions.some((v) => v.active))
      return apiError(400, 'Bad request', `service '${id}' has an active version: deactivate it first`);
    this.byId.delete(id);
    return { status: 200, body: { status: 'ok' } };
  }

  details(id: string): Answer {
    const s = this.byId.get(id);
    if (s === undefined) return notFound(`Cannot find service '${id}'`);
    const versions = s.versions.map((v) => this.versionJson(s, v));
    const active = s.versions.find((v) => v.active);
    return {
      status: 200,
      body: {
        ...this.serviceJson(s),
        version: versions[versions.length - 1],
        active_version: active === undefined ? null : this.versionJson(s, active),
        environments: [],
      },
    };
  }

  // ---- versions ----

  listVersions(id: string): Answer {
    const s = this.byId.get(id);
    if (s === undefined) return notFound(`Cannot find service '${id}'`);
    return { status: 200, body: s.versions.map((v) => this.versionJson(s, v)) };
  }

  getVersion(id: string, n: number): Answer {
    const found = this.version(id, n);
    return 'status' in found ? found : { status: 200, body: this.versionJson(found.s, found.v) };
  }

  /** `PUT /service/{id}/version/{n}` (form: comment): refused on a locked version. */
  updateVersion(id: string, n: number, comment: string | undefined): Answer {
    const found = this.editable(id, n);
    if ('status' in found) return found;
    if (comment !== undefined) found.v.comment = comment;
    found.v.updated = apiTime(this.now());
    return { status: 200, body: this.versionJson(found.s, found.v) };
  }

  /** `PUT .../clone`: a new editable version holding what version n holds. */
  clone(id: string, n: number): Answer {
    const found = this.version(id, n);
    if ('status' in found) return found;
    const v = this.newVersion(found.s, found.v);
    return { status: 200, body: this.versionJson(found.s, v) };
  }

  /** `PUT .../activate`: a Compute version needs a package and a domain; the one active before is not. */
  activate(id: string, n: number): Answer {
    const found = this.version(id, n);
    if ('status' in found) return found;
    const { s, v } = found;
    if (s.type === 'wasm' && v.parts.pkg === null)
      return apiError(400, 'Bad request', `version ${n} has no package: upload one before activating it`);
    if (v.parts.domains.size === 0)
      return apiError(400, 'Bad request', `version ${n} has no domain: a service needs one to be activated`);
    for (const x of s.versions) x.active = false;
    v.active = true;
    v.locked = true;
    v.updated = apiTime(this.now());
    return { status: 200, body: this.versionJson(s, v) };
  }

  /** The version if it can still change (never active, not locked), or the 400 Fastly answers. */
  editable(id: string, n: number): { s: Service; v: Version } | Answer {
    const found = this.version(id, n);
    if ('status' in found) return found;
    if (found.v.locked)
      return apiError(400, 'Bad request', `version ${n} of service '${id}' is locked: clone it to change it`);
    return found;
  }
}
