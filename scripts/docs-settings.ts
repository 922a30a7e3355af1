// `npm run docs:settings`: writes what comes from the settings' declarations (src/core/settings/
// declared.ts) and their documentation lines (lib/setting-docs.ts): the settings table of
// docs/configuration.md, and the JSON Schemas of docs/schema/ (settings, room.ID, room.ID.live and
// routing). test/scripts/docs-settings.test.ts fails when a file differs from what this writes.
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { isMain, runTool, UsageError } from '../lib/cli.js';
import { repoRoot } from '../lib/paths.js';
import { routingSchema } from '../lib/routing-schema.js';
import { settingDocs } from '../lib/setting-docs.js';
import { type JsonSchema, SCHEMA_DIR, settingSchemas } from '../lib/setting-schema.js';
import { declared, SETTING_NAMES } from '../src/core/settings/index.js';

const USAGE = `usage: npm run docs:settings   write the settings table of docs/configuration.md and docs/schema/*.schema.json`;

/** The file the table is in, and the lines around it that stay. */
export const CONFIGURATION_MD = 'docs/configuration.md';
const TABLE_START = '<!-- settings table: written by npm run docs:settings from src/core/settings/declared.ts -->';
const TABLE_END = '<!-- end of the settings table -->';

/** The settings table, one row per declared setting, its columns padded as the Markdown formatter pads them. */
export function settingsTableMarkdown(): string {
  const rows = SETTING_NAMES.map((name) => {
    const d = declared[name].default;
    return [`\`${name}\``, d === '' ? '(none)' : `\`${d}\``, settingDocs[name]];
  });
  const head = ['key', 'default', 'meaning'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: readonly string[]): string => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  return [line(head), `| ${widths.map((w) => '-'.repeat(w)).join(' | ')} |`, ...rows.map(line)].join('\n');
}

/** docs/configuration.md with its settings table as the declarations say; throws when its markers are gone. */
export function configurationWithTable(text: string): string {
  const start = text.indexOf(TABLE_START);
  const end = text.indexOf(TABLE_END);
  if (start < 0 || end < start) throw new Error(`${CONFIGURATION_MD} has lost the markers around its settings table`);
  return `${text.slice(0, start + TABLE_START.length)}\n\n${settingsTableMarkdown()}\n\n${text.slice(end)}`;
}

/** Every schema file of docs/schema/, by name, as it must read. */
export function schemaFiles(): Record<string, string> {
  const schemas: Record<string, JsonSchema> = { ...settingSchemas(), 'routing.schema.json': routingSchema() };
  return Object.fromEntries(Object.entries(schemas).map(([file, s]) => [file, `${JSON.stringify(s, null, 2)}\n`]));
}

function main(argv: string[]): Promise<number> {
  if (argv.length > 0) throw new UsageError(`takes no arguments, not "${argv.join(' ')}"`);
  const md = join(repoRoot, CONFIGURATION_MD);
  writeFileSync(md, configurationWithTable(readFileSync(md, 'utf8')));
  mkdirSync(join(repoRoot, SCHEMA_DIR), { recursive: true });
  for (const [file, text] of Object.entries(schemaFiles())) writeFileSync(join(repoRoot, SCHEMA_DIR, file), text);
  console.log(
    `wrote the settings table of ${CONFIGURATION_MD} and ${Object.keys(schemaFiles()).length} schemas in ${SCHEMA_DIR}/`,
  );
  return Promise.resolve(0);
}

if (isMain(import.meta.url)) runTool('docs:settings', USAGE, main);
