// Compute ACLs in the stand-in, as `fastly compute acl ...` reaches them: a batch of entries is taken
// whole or refused whole, with the address checks Fastly makes.
import { describe, expect, it } from 'vitest';
import { ComputeAcls } from '../../fastly-api/compute-acls.js';

describe('compute ACLs', () => {
  it('creates an ACL, takes a batch of entries with 202, and lists them', () => {
    const acls = new ComputeAcls();
    const made = acls.createAcl({ name: 'staff_ips' });
    const id = (made.body as { id: string }).id;
    expect(acls.createAcl({ name: 'staff_ips' }).status).toBe(409);
    const batch = {
      entries: [
        { op: 'create', prefix: '198.51.100.0/24', action: 'ALLOW' },
        { op: 'create', prefix: '2001:db8::/32', action: 'block' },
      ],
    };
    expect(acls.update(id, batch)).toEqual({ status: 202, body: null });
    expect(acls.listEntries(id).body).toEqual({
      entries: [
        { prefix: '198.51.100.0/24', action: 'ALLOW' },
        { prefix: '2001:db8::/32', action: 'BLOCK' },
      ],
      meta: { limit: 100 },
    });
  });

  it('refuses a whole batch for one bad entry, changing nothing', () => {
    const acls = new ComputeAcls();
    const id = acls.create('staff_ips').id;
    for (const bad of [
      { op: 'create', prefix: '300.0.0.1/32', action: 'ALLOW' },
      { op: 'create', prefix: '10.0.0.0/33', action: 'ALLOW' },
      { op: 'create', prefix: '10.0.0.0', action: 'ALLOW' },
      { op: 'create', prefix: '10.0.0.0/8', action: 'PERMIT' },
      { op: 'delete', prefix: '10.0.0.0/8', action: 'ALLOW' },
    ]) {
      const answer = acls.update(id, { entries: [{ op: 'create', prefix: '192.0.2.0/24', action: 'ALLOW' }, bad] });
      expect(answer.status, JSON.stringify(bad)).toBeGreaterThanOrEqual(400);
    }
    expect(acls.entries(id)).toEqual([]);
    expect(acls.update('nope', { entries: [] }).status).toBe(404);
    // deleted with 200: go-fastly refuses any other status for a delete
    expect(acls.deleteAcl(id).status).toBe(200);
    expect(acls.deleteAcl(id).status).toBe(404);
  });
});
