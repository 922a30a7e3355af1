// What the local host needs to run a service version as Fastly would: its fastly.toml ([local_server]
// with the version's backends, and the stores and ACLs it links under the names it links them by) and
// the JSON files holding those stores' values as the stand-in of Fastly's API has them now.
import type { FastlyApi } from '../fastly-api/server.js';
import type { Version } from '../fastly-api/services.js';

/** The file a linked store or ACL is kept in, next to the host's fastly.toml. */
export const fileOf = (linkName: string): string => `store-${linkName}.json`;

/** The stores and ACLs a version links, as the host's JSON files: file -> text. */
export function storeFiles(api: FastlyApi, v: Version): Map<string, string> {
  const files = new Map<string, string>();
  for (const link of v.parts.links) {
    const file = fileOf(link.name);
    if (link.resource_type === 'acl') {
      files.set(file, JSON.stringify({ entries: api.acls.entries(link.resource_id) }));
    } else if (link.resource_type === 'config') {
      files.set(file, JSON.stringify(api.store(link.resource_id)));
    } else if (link.resource_type === 'secret-store') {
      const names = Object.keys(api.secrets.names(link.resource_id));
      const values = names.map((n) => [n, api.secrets.value(link.resource_id, n).toString('utf8')]);
      files.set(file, JSON.stringify(Object.fromEntries(values)));
    }
  }
  return files;
}

/** The host's fastly.toml for version `v`, every backend sent to `origin` (the rehearsal's origin). */
export function edgeManifest(v: Version, origin: string): Record<string, unknown> {
  const linked = (type: string) => v.parts.links.filter((l) => l.resource_type === type);
  const stores = (type: string) =>
    Object.fromEntries(linked(type).map((l) => [l.name, { format: 'json', file: fileOf(l.name) }]));
  return {
    name: 'rehearsal-edge',
    local_server: {
      backends: Object.fromEntries([...v.parts.backends.keys()].map((name) => [name, { url: origin }])),
      config_stores: stores('config'),
      secret_stores: stores('secret-store'),
      acls: Object.fromEntries(linked('acl').map((l) => [l.name, fileOf(l.name)])),
    },
  };
}
