// deploy/terraform/ checked offline: no Terraform binary or provider can be installed here, so the
// module is parsed with HashiCorp's HCL parser (hcl2json) and held against the provider's documented
// schema (fastly-provider-schema.json, written from the docs of the version versions.tf pins), the
// names the code opens, fastly.toml's [setup], the room's own parsers, and its rules: Terraform never
// manages the keys written live, and no secret sits in a file.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../lib/paths.js';
import { storedBasis } from '../../lib/status-basis.js';
import { parseCondition, parseRouting } from '../../src/core/routing/index.js';
import { parseRoomConfig, readRoomRaws } from '../../src/core/settings/index.js';
import { CONFIG_STORE, KEY_STORE, ORIGIN_BACKEND, PAGE_STORE } from '../../src/fastly/names.js';
import { evalExpression, evaluate } from './hcl-eval.js';
import {
  blocksOf,
  declsOf,
  dynamicOf,
  parseModule,
  type ProviderSchema,
  readModule,
  referenceProblems,
  schemaProblems,
  scopeOf,
  secretProblems,
  type TfModule,
  trapProblems,
} from './terraform-check.js';

const dir = join(repoRoot, 'deploy/terraform');
const schema = JSON.parse(
  readFileSync(join(repoRoot, 'test/deploy/fastly-provider-schema.json'), 'utf8'),
) as ProviderSchema;
const texts = readModule(dir);
const readme = readFileSync(join(dir, 'README.md'), 'utf8');
type Table = Record<string, Record<string, unknown>>;
const manifest = parseToml(readFileSync(join(repoRoot, 'fastly.toml'), 'utf8')) as Record<string, unknown>;
const setup = manifest.setup as Record<string, Table>;
const setupItems = Object.fromEntries(
  Object.entries((setup.config_stores![CONFIG_STORE]!.items ?? {}) as Record<string, { value: string }>).map(
    ([k, v]) => [k, v.value],
  ),
);

let mod: TfModule;
beforeAll(async () => {
  mod = await parseModule(texts);
});

const service = () => declsOf(mod, 'fastly_service_compute')[0]!.body;
const seedEntries = async (vars: Record<string, unknown> = {}) =>
  (await evaluate(declsOf(mod, 'fastly_configstore_entries')[0]!.body.entries, scopeOf(mod, vars))) as Record<
    string,
    string
  >;

/** An HCL expression as hcl2json writes it in a value: `${...}`. */
const hcl = (expression: string): string => `\${${expression}}`;

/** The module's files with one change, whose text must occur once: the broken modules below. */
function broken(file: string, from: string, to: string): Record<string, string> {
  expect(texts[file]!.split(from).length - 1, `${from} in ${file}`).toBe(1);
  return { ...texts, [file]: texts[file]!.replace(from, to) };
}

describe('deploy/terraform/ against the provider', () => {
  it('uses only resource types, arguments and blocks the provider documents, with the required ones', () => {
    expect(Object.keys(texts)).toEqual(['main.tf', 'outputs.tf', 'stores.tf', 'variables.tf', 'versions.tf']);
    expect(schemaProblems(mod, schema)).toEqual([]);
    expect(referenceProblems(mod)).toEqual([]);
  });

  it('pins the provider version the fixture was written from', () => {
    const providers = mod.terraform.flatMap((t) => (t.required_providers ?? []) as Table[]);
    expect(providers).toEqual([{ fastly: { source: schema.provider, version: schema.version } }]);
  });

  it('deploys the package `fastly compute build` makes, hashed by the provider', async () => {
    const [pkg] = blocksOf(service(), 'package');
    expect(pkg!.source_code_hash).toBe(hcl('data.fastly_package_hash.room.hash'));
    const file = await evaluate(pkg!.filename, scopeOf(mod));
    expect(file).toBe(await evaluate(declsOf(mod, 'fastly_package_hash')[0]!.body.filename, scopeOf(mod)));
    expect(file).toMatch(new RegExp(`^deploy/terraform/\\.\\./\\.\\./pkg/${manifest.name}\\.tar\\.gz$`));
  });
});

describe('the names the code opens', () => {
  it('calls the backend origin', () => {
    expect(blocksOf(service(), 'backend').map((b) => b.name)).toEqual([ORIGIN_BACKEND]);
  });

  it('links each store under its name, whatever the stores are called in the account', async () => {
    const links = blocksOf(service(), 'resource_link');
    const wanted: Record<string, string> = {
      [CONFIG_STORE]: 'fastly_configstore',
      [PAGE_STORE]: 'fastly_configstore',
      [KEY_STORE]: 'fastly_secretstore',
    };
    expect(links.map((l) => l.name).sort()).toEqual(Object.keys(wanted).sort());
    for (const link of links) {
      const [, type, name] = /^\$\{(\w+)\.(\w+)\.id\}$/.exec(String(link.resource_id)) ?? [];
      expect(type, String(link.name)).toBe(wanted[String(link.name)]);
      const store = declsOf(mod, type!).find((d) => d.name === name)!;
      expect(await evaluate(store.body.name, scopeOf(mod))).toBe(link.name);
      expect(await evaluate(store.body.name, scopeOf(mod, { store_name_prefix: 'staging_' }))).toBe(
        `staging_${link.name}`,
      );
    }
  });

  it('links each bypass ACL under the name routing rules give it, and accepts only names they accept', async () => {
    const [acls] = dynamicOf(service(), 'resource_link');
    expect(acls!.for_each).toBe(hcl('fastly_compute_acl.bypass'));
    expect(blocksOf(acls!, 'content')[0]!.name).toBe(hcl('resource_link.key'));
    const entries = declsOf(mod, 'fastly_compute_acl_entries')[0]!.body;
    expect(entries.entries).toBe(hcl('{ for cidr in each.value : cidr => "ALLOW" }')); // docs/routing.md: action ALLOW
    const [rule] = (mod.variables.bypass_acls!.validation as Array<{ condition: string }>).map((v) => v.condition);
    const pattern = new RegExp(/regex\("([^"]+)"/.exec(rule!)![1]!);
    for (const name of ['staff_ips', 'office.v4', 'A-1', 'x'.repeat(255), 'bad name', 'x'.repeat(256), 'a/b', ''])
      expect(pattern.test(name), name).toBe(typeof parseCondition({ acl: name }) !== 'string');
    expect(rule).toContain(`["${CONFIG_STORE}", "${PAGE_STORE}", "${KEY_STORE}"]`);
  });
});

describe('the initial entries of waiting_room_config', () => {
  it("is fastly.toml's [setup] items, the same defaults publish seeds", async () => {
    const seeded = await seedEntries();
    expect(Object.keys(seeded).sort()).toEqual(Object.keys(setupItems).sort());
    // jsonencode orders an object's keys: the JSON values are compared parsed (the basis inside the live value too).
    const read = (key: string, value: string): unknown => {
      if (key === 'room.main.live')
        return { ...JSON.parse(value), status_basis: storedBasis({ [key]: value }, 'main') };
      return key === 'routing' || key === 'settings' ? JSON.parse(value) : value;
    };
    for (const [key, value] of Object.entries(setupItems))
      expect(read(key, seeded[key]!), key).toEqual(read(key, value));
    expect(storedBasis(seeded, 'main')).not.toBeNull();
  });

  it("passes the room's own parsers without a problem, each room admitting everyone", async () => {
    for (const vars of [{}, { https_log_url: 'https://controller.example.com:8443/' }]) {
      const seeded = await seedEntries(vars);
      const { routing, problems } = parseRouting(seeded.routing!);
      expect(problems).toEqual([]);
      for (const room of [null, ...routing!.roomIds]) {
        const parsed = parseRoomConfig(
          room,
          readRoomRaws((k) => seeded[k] ?? null, room),
        );
        expect(parsed.problems, String(room)).toEqual([]);
        expect(parsed.config.allowPercentage).toBe(100);
      }
    }
  });

  it('tells the room the HTTPS log endpoint by the name the endpoint is given', async () => {
    const url = 'https://controller.example.com:8443/';
    const [log] = dynamicOf(service(), 'logging_https');
    const on = scopeOf(mod, { https_log_url: url, https_log_header_value: 'a-test-value' });
    expect(await evaluate(log!.for_each, on)).toEqual([url]);
    expect(await evaluate(log!.for_each, scopeOf(mod))).toEqual([]);
    const name = await evaluate(blocksOf(log!, 'content')[0]!.name, on);
    const settings = JSON.parse((await seedEntries({ https_log_url: url })).settings!);
    expect(settings).toEqual({ ...JSON.parse(setupItems.settings!), log_endpoint: name });
    expect(JSON.parse((await seedEntries()).settings!)).not.toHaveProperty('log_endpoint');
    expect(Object.keys(setup.log_endpoints!)).toEqual([name]);
    // What the controller's https source reads (docs/control/running.md): NDJSON, with its secret header.
    expect(blocksOf(log!, 'content')[0]).toMatchObject({ message_type: 'blank', json_format: '2', method: 'POST' });
    const [check] = blocksOf(blocksOf(service(), 'lifecycle')[0]!, 'precondition');
    expect(await evaluate(check!.condition, on)).toBe(true);
    expect(await evaluate(check!.condition, scopeOf(mod, { https_log_url: url }))).toBe(false);
    expect(await evaluate(check!.condition, scopeOf(mod))).toBe(true);
  });

  it('enables Bot Management only when asked', async () => {
    const [bots] = dynamicOf(service(), 'product_enablement');
    expect(mod.variables.bot_management!.default).toBe(false);
    expect(await evaluate(bots!.for_each, scopeOf(mod))).toEqual([]);
    expect(await evaluate(bots!.for_each, scopeOf(mod, { bot_management: true }))).toHaveLength(1);
  });
});

describe('the trap: keys written live are never managed by Terraform', () => {
  it('seeds the Config Store once, with manage_entries = false and ignore_changes = [entries]', () => {
    expect(declsOf(mod, 'fastly_configstore_entries')).toHaveLength(1);
    expect(trapProblems(mod)).toEqual([]);
  });

  it("seeds nothing only the controller writes: no heartbeat, and of a room's live value only the status basis tune writes too", async () => {
    for (const [key, value] of Object.entries(await seedEntries())) {
      expect(key).not.toBe('controller');
      if (key.endsWith('.live')) expect(Object.keys(JSON.parse(value)), key).toEqual(['status_basis']);
    }
  });

  it('refuses manage_entries = true, a missing manage_entries and a missing ignore_changes', async () => {
    const managed = await parseModule(broken('stores.tf', '  manage_entries = false\n', '  manage_entries = true\n'));
    expect(trapProblems(managed).join('\n')).toMatch(/manage_entries must be written false \(it is true\)/);
    const unsaid = await parseModule(broken('stores.tf', '  manage_entries = false\n', ''));
    expect(trapProblems(unsaid).join('\n')).toMatch(/it is "absent"/);
    const unignored = await parseModule(
      broken('stores.tf', '    ignore_changes = [entries]\n', '    ignore_changes = []\n'),
    );
    expect(trapProblems(unignored)).toEqual([
      'fastly_configstore_entries.config_seed: lifecycle { ignore_changes = [entries] } is missing',
    ]);
  });
});

describe('secrets', () => {
  it('sits in no file: the log secret comes from a sensitive variable, and keys from no variable at all', async () => {
    expect(secretProblems(mod, schema, { ...texts, 'README.md': readme })).toEqual([]);
    expect(mod.variables.https_log_header_value!.sensitive).toBe(true);
    expect(declsOf(mod, 'fastly_secretstore').map((d) => Object.keys(d.body))).toEqual([['name']]);
    // After apply, one command makes the key the initial active_key names, from random bytes on stdin.
    expect(String(mod.outputs.key_command!.value)).toMatch(
      /^npm run keys -- add \$\{local\.seed_settings\.active_key\} --fastly-service \$\{fastly_service_compute\.room\.id\} --secret-store-id \$\{fastly_secretstore\.keys\.id\}$/,
    );
    expect(await evalExpression('local.seed_settings.active_key', scopeOf(mod))).toBe(
      JSON.parse(setupItems.settings!).active_key,
    );
  });

  it('refuses a key written in a file, a file read in, and a secret from a plain variable', async () => {
    const key = Buffer.alloc(48, 7).toString('base64');
    const literal = await parseModule(broken('main.tf', '= var.https_log_header_value', `= "${key}"`));
    expect(secretProblems(literal, schema, literal.texts).join('\n')).toMatch(
      /looks like a key[\s\S]*written in the file/,
    );
    const read = await parseModule(broken('main.tf', '= var.https_log_header_value', '= file("secret.txt")'));
    expect(secretProblems(read, schema, read.texts).join('\n')).toMatch(/reads a file/);
    const plain = await parseModule(broken('variables.tf', '  sensitive   = true\n', ''));
    expect(secretProblems(plain, schema, plain.texts)).toEqual([
      'fastly_service_compute.room.logging_https.header_value comes from var.https_log_header_value, not sensitive',
    ]);
  });
});

describe('the checker refuses a broken module', () => {
  it('a misspelt argument, an argument the resource lacks, a read-only one, a missing required one', async () => {
    const misspelt = await parseModule(broken('main.tf', 'address           =', 'adress =')); // both edits: one backend
    expect(schemaProblems(misspelt, schema)).toEqual([
      'fastly_service_compute.room.backend: "adress" is not an argument or block the provider documents (did you mean address?)',
      'fastly_service_compute.room.backend: the required "address" is missing',
    ]);
    const lacking = await parseModule(broken('stores.tf', '  manage_entries = false\n', '  manage_entrys = false\n'));
    expect(schemaProblems(lacking, schema).join('\n')).toMatch(/"manage_entrys" .* \(did you mean manage_entries\?\)/);
    const readOnly = await parseModule(
      broken('stores.tf', `  name = "${hcl('var.store_name_prefix')}waiting_room_keys"`, '  id = "x"'),
    );
    expect(schemaProblems(readOnly, schema)).toEqual([
      'fastly_secretstore.keys: "id" is read-only',
      'fastly_secretstore.keys: the required "name" is missing',
    ]);
  });

  it('a resource type the provider does not have, a block it does not know, a block as an argument', async () => {
    const invented = await parseModule({
      ...texts,
      'keys.tf': 'resource "fastly_secretstore_entry" "k" {\n  name = "key1"\n}\n',
    });
    expect(schemaProblems(invented, schema)).toEqual([
      'fastly_secretstore_entry.k: fastly_secretstore_entry is not a resource type of fastly/fastly 9.5.1',
    ]);
    const block = await parseModule(
      broken('main.tf', '  domain {\n    name = var.domain\n  }', '  domains {\n    name = var.domain\n  }'),
    );
    expect(schemaProblems(block, schema).join('\n')).toMatch(/"domains" .*did you mean domain\?/);
    const undescribed = await parseModule(broken('main.tf', 'dynamic "logging_https"', 'dynamic "logging_kafka"'));
    expect(schemaProblems(undescribed, schema).join('\n')).toMatch(/dynamic: "logging_kafka" is not an argument/);
    const asArgument = await parseModule(
      broken('stores.tf', 'entries        = local.seed_entries', 'entries { a = "b" }'),
    );
    expect(schemaProblems(asArgument, schema).join('\n')).toMatch(/"entries" is an argument, written as a block/);
  });

  it('an undeclared variable or resource, and text that is not HCL', async () => {
    const undeclared = await parseModule(
      broken('outputs.tf', 'fastly_configstore.pages.id', 'fastly_configstore.page.id'),
    );
    expect(referenceProblems(undeclared)).toEqual(['output.page_store_id: fastly_configstore.page is not declared']);
    const unknownVar = await parseModule(broken('main.tf', 'var.domain', 'var.domains'));
    expect(referenceProblems(unknownVar)).toEqual(['fastly_service_compute.room: var.domains is not declared']);
    await expect(parseModule({ 'bad.tf': 'resource "x" {\n  name = \n' })).rejects.toThrow();
  });
});
