// `[local_server.acls]`: each ACL's prefixes and actions, from a JSON file.
import { ipToBytes } from '../ip.js';
import { ConfigError, isTable, type Reader } from './reader.js';

export interface AclEntry {
  /** Address bytes (4 or 16) of the network. */
  network: number[];
  bits: number;
  prefix: string;
  action: string;
}

export function readAcls(raw: unknown, reader: Reader): Record<string, AclEntry[]> {
  const out: Record<string, AclEntry[]> = {};
  if (raw === undefined) return out;
  if (!isTable(raw)) throw new ConfigError('local_server.acls', 'expected a table');
  for (const [name, def] of Object.entries(raw)) {
    const key = `local_server.acls.${name}`;
    const file = typeof def === 'string' ? def : isTable(def) ? def.file : undefined;
    const fileKey = typeof def === 'string' ? key : `${key}.file`;
    if (file === undefined) throw new ConfigError(fileKey, 'expected a path to a JSON file');
    const json = reader.json(fileKey, file);
    if (!isTable(json) || !Array.isArray(json.entries))
      throw new ConfigError(fileKey, 'JSON must be { "entries": [...] }');
    out[name] = json.entries.map((e: unknown, i: number): AclEntry => {
      const ek = `${fileKey}.entries[${i}]`;
      if (!isTable(e) || typeof e.prefix !== 'string' || typeof e.action !== 'string') {
        throw new ConfigError(ek, 'expected { "prefix": "ip/len", "action": "..." }');
      }
      const [ip = '', len] = e.prefix.split('/');
      const network = ipToBytes(ip);
      if (!network) throw new ConfigError(`${ek}.prefix`, `invalid address ${JSON.stringify(ip)}`);
      const bits = len === undefined ? network.length * 8 : Number(len);
      if (!Number.isInteger(bits) || bits < 0 || bits > network.length * 8) {
        throw new ConfigError(`${ek}.prefix`, `invalid mask ${JSON.stringify(len)}`);
      }
      const action = e.action.toUpperCase();
      return { network, bits, prefix: e.prefix, action };
    });
  }
  return out;
}
