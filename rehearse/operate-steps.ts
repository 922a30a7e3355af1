// Running the live service: settings service-wide and for a room, a room's chance changed with one
// Config Store item, a key rotation and the old key's removal, the pages uploaded by the commands
// `npm run pages` prints (run exactly as printed), and an invitation that lets one visitor past a
// closed room. Each checked where it lands: the stand-in's stores, and the room's answers.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { repoRoot } from '../lib/paths.js';
import { encodePages, pageKey } from '../scripts/pages-to-store.js';
import { expectThat, fastly, idOf, npmRun, step, type Rehearsal } from './context.js';
import { succeeded } from './run.js';
import { runToEnd } from '../lib/run-to-end.js';

const settings = (r: Rehearsal): Record<string, string> =>
  JSON.parse(r.api.store(idOf(r, 'CONFIG_ID')).settings ?? '{}') as Record<string, string>;

/** A new visitor's first request: whether it reached the origin (else the room held it). */
export async function newVisitorPasses(r: Rehearsal, path = '/'): Promise<boolean> {
  await r.edge!.sync();
  const before = r.origin.requests.length;
  const res = await fetch(`${r.edge!.url}${path}`, { headers: { accept: 'text/html' } });
  await res.arrayBuffer();
  return r.origin.requests.length > before;
}

/** Polls `check` until it holds: a store change reaches the room's host within about a second. */
async function eventually(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 40; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${what}: not after 10 s`);
}

async function tuneSteps(r: Rehearsal): Promise<void> {
  const svc = r.serviceId;
  await step(r, 'a service-wide setting', `npm run tune -- --service ${svc} wait_period_duration=20`, async () => {
    await npmRun(r, 'tune', ['--service', svc, 'wait_period_duration=20']);
    expectThat(settings(r).wait_period_duration === '20', `settings holds ${JSON.stringify(settings(r))}`);
  });
  await step(
    r,
    "a room's setting: the room closes",
    `npm run tune -- --service ${svc} --room main allow_percentage=0`,
    async () => {
      await npmRun(r, 'tune', ['--service', svc, '--room', 'main', 'allow_percentage=0']);
      await eventually(async () => !(await newVisitorPasses(r)), 'a new visitor still reaches the origin');
    },
  );
  const item = [
    'config-store-entry',
    'update',
    '--store-id',
    idOf(r, 'CONFIG_ID'),
    '--key',
    'room.main.allow_percentage',
    '--value',
    '100',
  ];
  await step(
    r,
    'one item update reopens it',
    `npx fastly ${item.join(' ').replace(idOf(r, 'CONFIG_ID'), 'CONFIG_ID')}`,
    async () => {
      await fastly(r, item);
      await eventually(() => newVisitorPasses(r), 'a new visitor still waits');
    },
  );
}

async function keySteps(r: Rehearsal): Promise<void> {
  const svc = r.serviceId;
  await step(r, 'rotate to a new key', `npm run keys -- rotate key2 --fastly-service ${svc}`, async () => {
    await npmRun(r, 'keys', ['rotate', 'key2', '--fastly-service', svc]);
    expectThat(settings(r).active_key === 'key2', `active_key is ${settings(r).active_key}`);
    await eventually(() => newVisitorPasses(r), 'a new visitor is not let in after the rotation');
  });
  await step(r, 'remove the old key', `npm run keys -- remove key1 --fastly-service ${svc}`, async () => {
    await npmRun(r, 'keys', ['remove', 'key1', '--fastly-service', svc]);
    const names = Object.keys(r.api.secrets.names(idOf(r, 'KEYS_ID')));
    expectThat(JSON.stringify(names) === '["key2"]', `the key store holds ${names.join(', ')}`);
  });
}

async function pageSteps(r: Rehearsal): Promise<void> {
  const svc = r.serviceId;
  const script = await step(r, 'print the page upload', `npm run pages -- --fastly-service ${svc}`, () =>
    npmRun(r, 'pages', ['--fastly-service', svc]),
  );
  await step(r, 'run it as printed', 'bash, in the project, no fastly on the PATH', async () => {
    // An operator's shell: npm puts node_modules/.bin on the PATH of its scripts, a terminal does not.
    const path = (r.env.PATH ?? '').split(':').filter((d) => !d.includes(join('node_modules', '.bin')));
    succeeded(
      await runToEnd('bash', ['-e'], { cwd: repoRoot, env: { ...r.env, PATH: path.join(':') }, stdin: script }),
      'the printed commands',
    );
    const pages = await encodePages(join(repoRoot, 'pages'));
    const held = r.api.store(idOf(r, 'PAGES_ID'));
    for (const p of pages)
      expectThat(held[pageKey(p.name)] === p.base64, `page ${p.name} is not in the page store as printed`);
  });
}

async function inviteSteps(r: Rehearsal): Promise<void> {
  const svc = r.serviceId;
  // Admissions paused: new visitors queue (allow_percentage = 0 would be the kill switch, invites included).
  await step(r, 'pause admissions', `npm run tune -- --service ${svc} --room main queue_all=true`, async () => {
    await npmRun(r, 'tune', ['--service', svc, '--room', 'main', 'queue_all=true']);
    await eventually(async () => !(await newVisitorPasses(r)), 'the room does not pause');
  });
  await step(r, 'an invite key', `npm run keys -- add-invite k1 --fastly-service ${svc}`, () =>
    npmRun(r, 'keys', ['add-invite', 'k1', '--fastly-service', svc]),
  );
  const printed = await step(
    r,
    'an invitation',
    `npm run invite -- --room main --sub ip:127.0.0.1 --service ${svc}`,
    () =>
      npmRun(r, 'invite', ['--room', 'main', '--sub', 'ip:127.0.0.1', '--service', svc, '--url', `${r.edge!.url}/`]),
  );
  const link = /https?:\/\/\S*waiting_room_invite=\S+/.exec(printed)?.[0];
  expectThat(link !== undefined, `no link in: ${printed}`);
  await step(r, 'the invited visitor gets in', 'a paused room, the link', async () => {
    await r.edge!.sync();
    const before = r.origin.requests.length;
    const res = await fetch(link!, { headers: { accept: 'text/html' }, redirect: 'manual' });
    await res.arrayBuffer();
    const passed = r.origin.requests.length > before || (res.status >= 300 && res.status < 400);
    expectThat(passed, `the invited visitor got ${res.status} and did not reach the origin`);
    expectThat(!(await newVisitorPasses(r)), 'the room let in a visitor without the invitation');
  });
  await aclSteps(r);
  await step(r, 'resume admissions', `npm run tune -- --service ${svc} --room main queue_all=`, () =>
    npmRun(r, 'tune', ['--service', svc, '--room', 'main', 'queue_all=']),
  );
}

/** Rooms and rules as JSON: one room over everything, and the staff's bypass when `staff`. */
const routing = (staff: boolean): string =>
  JSON.stringify({
    rooms: [{ id: 'main', routes: ['/'] }],
    default_room: 'main',
    rules: staff ? [{ id: 'staff', if: { acl: 'staff_ips' }, then: 'bypass' }] : [],
  });

/** What [setup] cannot make: an ACL, linked on a new version, and a bypass rule on it (the room paused). */
async function aclSteps(r: Rehearsal): Promise<void> {
  const svc = r.serviceId;
  await step(
    r,
    'an ACL of staff addresses',
    'npx fastly compute acl create --name staff_ips; ... update --operation create',
    async () => {
      await fastly(r, ['compute', 'acl', 'create', '--name', 'staff_ips']);
      const id = [...r.api.acls.byId.values()].find((a) => a.name === 'staff_ips')!.id;
      r.names.set(id, 'ACL_ID');
      await fastly(r, [
        'compute',
        'acl',
        'update',
        '--acl-id',
        id,
        '--operation',
        'create',
        '--prefix',
        '127.0.0.1/32',
        '--action',
        'ALLOW',
      ]);
    },
  );
  const id = idOf(r, 'ACL_ID');
  const link = [
    'resource-link',
    'create',
    '--service-id',
    svc,
    '--version',
    'active',
    '--autoclone',
    '--resource-id',
    id,
    '--name',
    'staff_ips',
  ];
  await step(
    r,
    'linked on a new version, activated',
    `npx fastly service resource-link create ... --autoclone --resource-id ACL_ID; service version activate`,
    async () => {
      await fastly(r, link);
      await fastly(r, ['service', 'version', 'activate', '--service-id', svc, '--version', 'latest']);
    },
  );
  const file = join(r.dir, 'routing.json');
  await writeFile(file, routing(true));
  await step(r, 'a bypass rule on it', `npm run tune -- --service ${svc} --routing routing.json`, async () => {
    await npmRun(r, 'tune', ['--service', svc, '--routing', file]);
    await eventually(() => newVisitorPasses(r), 'a visitor from a staff address still waits');
  });
  await writeFile(file, routing(false));
  await step(r, 'the rule taken out', `npm run tune -- --service ${svc} --routing routing.json`, async () => {
    await npmRun(r, 'tune', ['--service', svc, '--routing', file]);
    await eventually(async () => !(await newVisitorPasses(r)), 'the staff rule still applies');
  });
}

export async function operateSteps(r: Rehearsal): Promise<void> {
  await tuneSteps(r);
  await keySteps(r);
  await pageSteps(r);
  await inviteSteps(r);
}
