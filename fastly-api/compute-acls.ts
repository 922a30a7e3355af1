// Compute ACLs as Fastly's API keeps them (`fastly compute acl ...`): an account-wide list of address
// prefixes, each ALLOW or BLOCK, that a service reads once a version links it. Shapes of go-fastly's
// computeacls package: `{name, id}`, `{data, meta: {total}}`, `{entries, meta: {limit}}`; a batch of
// entries (`PATCH .../entries`, ops create, update, delete) is taken whole or not at all, with 202.
import { isIP } from 'node:net';
import { apiError, newId, type Answer } from './config-store.js';

export interface AclEntry {
  prefix: string;
  action: 'ALLOW' | 'BLOCK';
}

export interface ComputeAcl {
  id: string;
  name: string;
  entries: Map<string, AclEntry['action']>;
}

/** A prefix Fastly takes: an IPv4 or IPv6 address, a `/` and a mask length that fits it. */
function validPrefix(prefix: string): boolean {
  const [ip = '', bits, extra] = prefix.split('/');
  const family = isIP(ip);
  if (family === 0 || extra !== undefined || bits === undefined || !/^\d{1,3}$/.test(bits)) return false;
  return Number(bits) <= (family === 4 ? 32 : 128);
}

export class ComputeAcls {
  readonly byId = new Map<string, ComputeAcl>();

  create(name: string): ComputeAcl {
    const acl: ComputeAcl = { id: newId(), name, entries: new Map() };
    this.byId.set(acl.id, acl);
    return acl;
  }

  /** An ACL's entries, for the room's host (rehearse/edge.ts) and tests. */
  entries(id: string): AclEntry[] {
    return [...(this.byId.get(id)?.entries ?? [])].map(([prefix, action]) => ({ prefix, action }));
  }

  createAcl(body: unknown): Answer {
    const name = (body as { name?: unknown } | null)?.name;
    if (typeof name !== 'string' || !/^[A-Za-z0-9_-]{1,255}$/.test(name))
      return apiError(400, 'Bad request', 'name must be 1-255 letters, digits, "-" or "_"');
    if ([...this.byId.values()].some((a) => a.name === name))
      return apiError(409, 'Duplicate record', `an ACL named ${name} exists already`);
    const acl = this.create(name);
    return { status: 200, body: { name: acl.name, id: acl.id } };
  }

  list(): Answer {
    const data = [...this.byId.values()].map((a) => ({ name: a.name, id: a.id }));
    return { status: 200, body: { data, meta: { total: data.length } } };
  }

  describe(id: string): Answer {
    const a = this.byId.get(id);
    return a === undefined ? apiError(404, 'Record not found') : { status: 200, body: { name: a.name, id: a.id } };
  }

  deleteAcl(id: string): Answer {
    // 200, as go-fastly's computeacls.Delete expects (it refuses any other status, 204 included).
    return this.byId.delete(id) ? { status: 200, body: { status: 'ok' } } : apiError(404, 'Record not found');
  }

  listEntries(id: string): Answer {
    const a = this.byId.get(id);
    if (a === undefined) return apiError(404, 'Record not found');
    return { status: 200, body: { entries: this.entries(id), meta: { limit: 100 } } };
  }

  /** `PATCH .../entries`: every op checked first, then all applied (202), or none (400/404). */
  update(id: string, body: unknown): Answer {
    const a = this.byId.get(id);
    if (a === undefined) return apiError(404, 'Record not found');
    const entries = (body as { entries?: unknown } | null)?.entries;
    if (!Array.isArray(entries) || entries.length === 0)
      return apiError(400, 'Bad request', 'entries must be a list of {op, prefix, action}');
    const next = new Map(a.entries);
    for (const e of entries as Array<Record<string, unknown>>) {
      const prefix = typeof e.prefix === 'string' ? e.prefix : '';
      const action = typeof e.action === 'string' ? e.action.toUpperCase() : '';
      if (!validPrefix(prefix)) return apiError(400, 'Bad request', `prefix "${prefix}" is not ADDRESS/BITS`);
      if (e.op === 'delete') {
        if (!next.delete(prefix)) return apiError(404, 'Record not found', `no entry ${prefix}`);
        continue;
      }
      if (e.op !== 'create' && e.op !== 'update')
        return apiError(400, 'Bad request', `op must be create, update or delete`);
      if (action !== 'ALLOW' && action !== 'BLOCK')
        return apiError(400, 'Bad request', `action must be ALLOW or BLOCK`);
      next.set(prefix, action);
    }
    a.entries = next;
    return { status: 202, body: null };
  }
}
