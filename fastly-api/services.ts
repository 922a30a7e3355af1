// Services as far as the project's tools look at them: a service's versions (which one is active)
// and the resource links of a version (which store a service reaches under which name), in the
// shapes of `GET /service/{id}/details`, `/service/{id}/version` and `/service/{id}/version/{n}/resource`.
import { apiError, apiTime, newId, type Answer } from './config-store.js';

export interface ResourceLink {
  id: string;
  /** The name the service's code opens the store by. */
  name: string;
  resource_id: string;
  resource_type: 'config' | 'secret-store' | 'kv-store';
}

export interface Service {
  id: string;
  name: string;
  created: string;
  /** Version numbers 1..versions; `active` is the active one (0: none). */
  versions: number;
  active: number;
  links: ResourceLink[];
}

export class Services {
  readonly byId = new Map<string, Service>();

  constructor(private readonly now: () => number) {}

  /** A service with one active version linking `links` (name -> store). */
  create(id: string, links: Omit<ResourceLink, 'id'>[] = [], name = id): Service {
    const s: Service = {
      id,
      name,
      created: apiTime(this.now()),
      versions: 1,
      active: 1,
      links: links.map((l) => ({ id: newId(), ...l })),
    };
    this.byId.set(id, s);
    return s;
  }

  private versionJson(s: Service, n: number): Record<string, unknown> {
    const active = n === s.active;
    return {
      number: n,
      service_id: s.id,
      comment: '',
      active,
      locked: active,
      deployed: active,
      staging: false,
      testing: false,
      created_at: s.created,
      updated_at: s.created,
      deleted_at: null,
    };
  }

  private linkJson(s: Service, n: number, l: ResourceLink): Record<string, unknown> {
    return {
      ...l,
      service_id: s.id,
      version: n,
      href: null,
      created_at: s.created,
      updated_at: s.created,
      deleted_at: null,
    };
  }

  details(id: string): Answer {
    const s = this.byId.get(id);
    if (s === undefined) return apiError(404, 'Record not found', `Cannot find service '${id}'`);
    const versions = Array.from({ length: s.versions }, (_, i) => this.versionJson(s, i + 1));
    return {
      status: 200,
      body: {
        id: s.id,
        name: s.name,
        type: 'wasm',
        comment: '',
        customer_id: 'standin',
        created_at: s.created,
        updated_at: s.created,
        deleted_at: null,
        versions,
        environments: [],
        version: versions[s.versions - 1],
        active_version: s.active === 0 ? null : versions[s.active - 1],
      },
    };
  }

  listVersions(id: string): Answer {
    const s = this.byId.get(id);
    if (s === undefined) return apiError(404, 'Record not found', `Cannot find service '${id}'`);
    return { status: 200, body: Array.from({ length: s.versions }, (_, i) => this.versionJson(s, i + 1)) };
  }

  getVersion(id: string, n: number): Answer {
    const s = this.byId.get(id);
    if (s === undefined || !(n >= 1 && n <= s.versions)) return apiError(404, 'Record not found');
    return { status: 200, body: this.versionJson(s, n) };
  }

  /** Every version links the same stores: the stand-in does not model changes between versions. */
  listLinks(id: string, n: number): Answer {
    const s = this.byId.get(id);
    if (s === undefined || !(n >= 1 && n <= s.versions)) return apiError(404, 'Record not found');
    return { status: 200, body: s.links.map((l) => this.linkJson(s, n, l)) };
  }

  getLink(id: string, n: number, linkId: string): Answer {
    const s = this.byId.get(id);
    const l = s?.links.find((x) => x.id === linkId);
    if (s === undefined || l === undefined) return apiError(404, 'Record not found');
    return { status: 200, body: this.linkJson(s, n, l) };
  }
}
