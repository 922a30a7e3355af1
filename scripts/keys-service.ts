// `npm run keys -- ... --fastly-service ID`: the keys' verbs on a service's Secret Store (and its
// settings, for a rotation), through the Fastly CLI. scripts/keys.ts parses the command line.
import { signingKeys } from '../lib/room-store.js';
import { planTune } from './tune-plan.js';
import { readStoreIfExists, writeStoreAtomic } from '../lib/json-store.js';
import { readServiceStore } from './tune.js';
import { KEY_STORE } from '../src/fastly/names.js';
import { resolveStoreId, writeServiceValues, type FastlyRunner } from '../lib/fastly-cli.js';
import { UsageError } from '../lib/cli.js';
import {
  checkKid,
  inviteKeyName,
  KEY_FILE_MODE,
  KeyError,
  type LocalFiles,
  NEW_KEY_COMMAND,
  newKey,
} from './keys-names.js';

/**
 * An invite key on a service. A Secret Store never gives a value back, and the backend that makes
 * invites needs the key: it is kept in the local key file too (made there first when missing), and
 * that value is what the service gets.
 */
export async function addInviteService(
  files: LocalFiles,
  name: string,
  o: ServiceOptions,
  fastly: FastlyRunner,
): Promise<string> {
  const local = (await readStoreIfExists(files.keys)) ?? {};
  const kept = local[name];
  const key = kept ?? newKey();
  const store = o.secretStoreId ?? resolveStoreId(fastly, o.serviceId, KEY_STORE);
  fastly.run(['secret-store-entry', 'create', '--store-id', store, '--name', name, '--stdin'], {
    stdin: key,
    stdinNote: kept === undefined ? NEW_KEY_COMMAND : `(the "${name}" value in ${files.keys})`,
  });
  if (fastly.dryRun) return '';
  if (kept === undefined) await writeStoreAtomic(files.keys, { ...local, [name]: key }, KEY_FILE_MODE);
  return `created secret "${name}" with the key ${kept === undefined ? 'now kept' : 'already'} in ${files.keys}; invites signed with it are accepted now (docs/invites.md)`;
}

export interface ServiceOptions {
  serviceId: string;
  secretStoreId: string | undefined;
  configStoreId: string | undefined;
}

export function runService(command: string, kid: string | undefined, o: ServiceOptions, fastly: FastlyRunner): string {
  const secretStore = () => o.secretStoreId ?? resolveStoreId(fastly, o.serviceId, KEY_STORE);
  // The key goes through stdin: on a command line it would sit in shell history and `ps`.
  const create = (id: string) =>
    fastly.run(['secret-store-entry', 'create', '--store-id', secretStore(), '--name', id, '--stdin'], {
      stdin: newKey(),
      stdinNote: NEW_KEY_COMMAND,
    });
  switch (command) {
    case 'remove-invite': {
      if (kid === undefined) throw new UsageError('name the invite key id to remove, e.g. remove-invite k1');
      const name = inviteKeyName(kid);
      fastly.run(['secret-store-entry', 'delete', '--store-id', secretStore(), '--name', name]);
      return fastly.dryRun ? '' : `deleted secret "${name}"; invites it signed are now refused`;
    }
    case 'add': {
      const id = checkKid(kid);
      create(id);
      return fastly.dryRun ? '' : `created secret "${id}"; it verifies tokens now, and signs once active_key names it`;
    }
    case 'rotate': {
      const id = checkKid(kid);
      // The store is read first (its settings value is rewritten whole), the secret made before the
      // switch: a room that reads active_key before its key exists cannot sign (503 for new visitors).
      const { id: store, current } = readServiceStore(o.serviceId, o.configStoreId);
      const plan = planTune(current, { room: null, updates: new Map([['active_key', id]]) });
      if (plan.errors.length > 0) throw new KeyError(`${plan.errors.join('; ')}; nothing was changed`);
      create(id);
      try {
        writeServiceValues(fastly, store, plan.writes);
      } catch (error) {
        // Half done: the secret is there, nothing signs with it yet. Say so, and how to finish.
        throw new KeyError(
          `${(error as Error).message}\nsecret "${id}" was created in the service's Secret Store, but active_key was not switched to it: ` +
            `nothing signs with it yet. Finish with: npm run tune -- --service ${o.serviceId} active_key=${id}`,
        );
      }
      const own = signingKeys(plan.next);
      const others = [...own]
        .filter(([k]) => k !== id)
        .map(
          ([k, rooms]) =>
            `room${rooms.length === 1 ? '' : 's'} ${rooms.join(', ')} still sign with "${k}" (their own active_key)`,
        );
      return fastly.dryRun
        ? ''
        : [
            `created secret "${id}" and set active_key to "${id}" (settings); remove the old key once cookie_lifetime has passed`,
            ...others,
          ].join('\n');
    }
    case 'remove': {
      const id = checkKid(kid);
      const rooms = signingKeys(readServiceStore(o.serviceId, o.configStoreId).current).get(id);
      if (rooms !== undefined)
        throw new KeyError(
          `key "${id}" is the service's active_key (room${rooms.length === 1 ? '' : 's'} ${rooms.join(', ')}); rotate to another key first`,
        );
      fastly.run(['secret-store-entry', 'delete', '--store-id', secretStore(), '--name', id]);
      return fastly.dryRun ? '' : `deleted secret "${id}"`;
    }
    default:
      throw new KeyError(`"${command}" is local only; on a service use add, rotate or remove`);
  }
}
