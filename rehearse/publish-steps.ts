// From nothing to a live service: `fastly compute publish` on a new service, the first signing key,
// the room serving, then a second publish (a new version) and `fastly compute deploy --service-id`.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'smol-toml';
import { CONFIG_STORE, KEY_STORE, ORIGIN_BACKEND, PAGE_STORE } from '../src/fastly/names.js';
import { repoRoot } from '../lib/paths.js';
import { expectThat, fastly, idOf, npmRun, step, type Rehearsal } from './context.js';
import { startEdge } from './edge.js';

export const DOMAIN = 'rehearsal.example.com';

/** What `[setup]` gives each Config Store: store name -> item key -> value. */
async function setupItems(): Promise<Record<string, Record<string, string>>> {
  const toml = parse(await readFile(join(repoRoot, 'fastly.toml'), 'utf8')) as {
    setup?: { config_stores?: Record<string, { items?: Record<string, { value?: string }> }> };
  };
  const out: Record<string, Record<string, string>> = {};
  for (const [name, store] of Object.entries(toml.setup?.config_stores ?? {}))
    out[name] = Object.fromEntries(Object.entries(store.items ?? {}).map(([k, v]) => [k, v.value ?? '']));
  return out;
}

/** An object's entries in key order, as text: the CLI creates items in no set order. */
const sorted = (o: Record<string, string>): string =>
  JSON.stringify(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : 1)));

/** The new service holds exactly what the code opens, with the values `[setup]` gave. */
async function checkPublished(r: Rehearsal): Promise<void> {
  const s = r.api.services.byId.get(r.serviceId)!;
  const v = s.versions.find((x) => x.active);
  expectThat(v !== undefined, 'no version is active after publish');
  const links = Object.fromEntries(v!.parts.links.map((l) => [l.name, l]));
  const want = [CONFIG_STORE, KEY_STORE, PAGE_STORE].sort();
  expectThat(
    JSON.stringify(Object.keys(links).sort()) === JSON.stringify(want),
    `the service links ${Object.keys(links).join(', ')}; the code opens ${want.join(', ')}`,
  );
  expectThat(links[KEY_STORE]!.resource_type === 'secret-store', `${KEY_STORE} is not linked as a Secret Store`);
  for (const [name, items] of Object.entries(await setupItems())) {
    const held = r.api.store(links[name]!.resource_id);
    expectThat(
      sorted(held) === sorted(items),
      `${name} holds ${JSON.stringify(held)}, [setup] gave ${JSON.stringify(items)}`,
    );
    r.names.set(links[name]!.resource_id, name === CONFIG_STORE ? 'CONFIG_ID' : 'PAGES_ID');
  }
  r.names.set(links[KEY_STORE]!.resource_id, 'KEYS_ID');
  expectThat(v!.parts.backends.has(ORIGIN_BACKEND), `no backend named ${ORIGIN_BACKEND}, the name the code sends to`);
  expectThat(v!.parts.domains.has(DOMAIN), `the domain ${DOMAIN} is not on the version`);
}

export async function publishSteps(r: Rehearsal): Promise<void> {
  const publish = ['compute', 'publish', '--non-interactive', '--status-check-off'];
  await step(r, 'publish a new service', `npx fastly ${publish.join(' ')} --domain ${DOMAIN}`, async () => {
    const out = await fastly(r, [...publish, '--domain', DOMAIN], r.stage.dir);
    const id = await r.stage.serviceId();
    expectThat(
      id !== null && out.includes(`SUCCESS: Deployed package (service ${id}, version 1)`),
      `publish said: ${out}`,
    );
    r.serviceId = id!;
    r.names.set(r.serviceId, 'SERVICE_ID');
    await checkPublished(r);
  });

  r.edge = await step(
    r,
    'the room, before its first key',
    "the active version's package on the local host, its status",
    async () => {
      const edge = await startEdge(r.api, r.serviceId, r.origin.url);
      const res = await fetch(`${edge.url}/`, { headers: { accept: 'text/html' } });
      await res.arrayBuffer();
      // [setup] opens the room at allow_percentage 100: visitors pass, and the room says it cannot sign.
      const said = edge.tail(10).some((l) => /active_key "key1" has no usable key in waiting_room_keys/.test(l));
      expectThat(
        res.status === 200 && r.origin.requests.length === 1 && said,
        `a visitor got ${res.status}; the room said ${edge.tail(6).join(' | ')}`,
      );
      // Its public status, from the basis [setup] seeds (docs/status.md): open, not unknown.
      const status = await (await fetch(`${edge.url}/__waiting_room/status?room=main`)).text();
      expectThat(/"state":"open","reason":"allow_all"/.test(status), `the room's status said ${status}`);
      return edge;
    },
  );

  await step(r, 'the first signing key', `npm run keys -- add key1 --fastly-service ${r.serviceId}`, async () => {
    await npmRun(r, 'keys', ['add', 'key1', '--fastly-service', r.serviceId]);
    const keys = r.api.secrets.names(idOf(r, 'KEYS_ID'));
    expectThat(keys.key1?.sealed === true, `key1 is not in ${KEY_STORE}, sealed by the CLI`);
    await r.edge!.sync();
    const res = await fetch(`${r.edge!.url}/`, { headers: { accept: 'text/html' } });
    await res.arrayBuffer();
    expectThat(
      res.status === 200 && r.origin.requests.length === 2,
      `a visitor got ${res.status}, not the origin's page`,
    );
  });

  const again = await step(r, 'publish again: a new version', `npx fastly ${publish.join(' ')}`, () =>
    fastly(r, publish, r.stage.dir),
  );
  expectThat(again.includes(`version 2)`), `the second publish said: ${again}`);
  await r.edge!.sync();
  expectThat(r.edge!.version() === 2, `the room runs version ${r.edge!.version()}, not 2`);

  const versions = await step(r, 'the versions', `npx fastly service version list --service-id ${r.serviceId}`, () =>
    fastly(r, ['service', 'version', 'list', '--service-id', r.serviceId]),
  );
  expectThat(/^2\s+true/m.test(versions) && /^1\s+false/m.test(versions), `service version list said: ${versions}`);

  const deploy = [
    'compute',
    'deploy',
    '--service-id',
    r.serviceId,
    '--package',
    r.stage.packagePath,
    '--non-interactive',
    '--status-check-off',
  ];
  const same = await step(
    r,
    'deploy the same package',
    `npx fastly compute deploy --service-id ${r.serviceId} --package pkg/…`,
    () => fastly(r, deploy, r.stage.dir),
  );
  expectThat(same.includes('identical'), `deploy of an unchanged package said: ${same}`);
}
