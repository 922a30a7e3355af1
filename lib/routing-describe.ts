// The routing value as `npm run tune` shows it: the rooms with their routes, the order routes are
// tried in, the rules with their conditions in words.
import { cidrText, hostText, type PathPrefix, type Condition, type Routing } from '../src/core/routing/index.js';

function prefixText(p: PathPrefix): string {
  return `${p.path === '' ? '/' : p.path}${p.ignoreCase ? ' (any case)' : ''}`;
}

const list = (xs: Iterable<string | number>): string => [...xs].join(', ');

/** One condition in words, e.g. `path starts with /webhooks and method is POST`. */
export function describeCondition(c: Condition): string {
  switch (c.k) {
    case 'host':
      return `host is ${list(c.hosts.map(hostText))}`;
    case 'path':
      if (c.mode === 'prefix') return `path under ${list(c.prefixes.map(prefixText))}`;
      return `path ${c.mode === 'exact' ? 'is' : 'ends with'} ${list(c.values)}${c.ignoreCase ? ' (any case)' : ''}`;
    case 'method':
      return `method is ${list(c.methods)}`;
    case 'query':
      return c.equals === null ? `query has ${c.name}` : `query ${c.name} = ${JSON.stringify(c.equals)}`;
    case 'header':
      if (c.equals !== null) return `header ${c.name} = ${JSON.stringify(c.equals)}`;
      return c.prefix !== null
        ? `header ${c.name} starts with ${JSON.stringify(c.prefix)}`
        : `header ${c.name} present`;
    case 'cookie':
      return `cookie ${c.name} present`;
    case 'ip':
      return `client IP in ${list(c.blocks.map(cidrText))}`;
    case 'country':
    case 'continent':
      return `${c.k} is ${list(c.codes)}`;
    case 'asn':
      return `ASN is ${list(c.numbers)}`;
    case 'device':
      return `device is ${list(c.classes)}`;
    case 'verified_bot':
      return c.categories === null ? 'verified bot' : `verified bot of ${list(c.categories)}`;
    case 'acl':
      return `client IP allowed by ACL ${c.name}`;
    case 'not':
      return `not (${describeCondition(c.c)})`;
    case 'all':
    case 'any':
      return c.cs
        .map((x) => (x.k === 'all' || x.k === 'any' ? `(${describeCondition(x)})` : describeCondition(x)))
        .join(c.k === 'all' ? ' and ' : ' or ');
  }
}

/** The routing, one line each: rooms, routes in the order they are tried, rules in order, default room. */
export function describeRouting(routing: Routing): string[] {
  const lines: string[] = [];
  for (const room of routing.rooms)
    lines.push(
      `room ${room.id}: ${room.routes.length === 0 ? '(no routes: reached by rules or as the default room)' : list(room.routes.map((r) => r.text))}`,
    );
  lines.push('routes, most specific first:');
  for (const r of routing.table.ordered)
    lines.push(`  ${r.host === null ? '' : hostText(r.host)}${prefixText(r.prefix)} -> ${r.room}`);
  lines.push(routing.rules.length === 0 ? 'rules: none' : 'rules, first that applies wins:');
  routing.rules.forEach((rule, i) => {
    lines.push(
      `  ${i + 1}. ${rule.id}: if ${describeCondition(rule.condition)} -> ${rule.then.kind === 'bypass' ? 'bypass (origin, never queued)' : rule.then.kind === 'bot' ? 'bot (where the routes send it, marked a bot)' : `room ${rule.then.room}`}`,
    );
  });
  lines.push(
    routing.defaultRoom === null
      ? 'default room: none (a request matching no rule and no route goes to the origin)'
      : `default room: ${routing.defaultRoom}`,
  );
  return lines;
}
