// What a new routing changes, in words for `npm run tune -- --routing FILE`: the rooms and rules
// (by id) added, removed or changed, and a new default room. Read from the JSON as written; a value
// that is not a routing object gives nothing to compare, and the caller says only that it replaced it.

interface HasId {
  id?: unknown;
}

function byId(list: unknown): Map<string, string> {
  const out = new Map<string, string>();
  if (!Array.isArray(list)) return out;
  for (const item of list as HasId[])
    if (item !== null && typeof item === 'object' && typeof item.id === 'string')
      out.set(item.id, JSON.stringify(item));
  return out;
}

function parse(text: string | undefined): Record<string, unknown> | null {
  if (text === undefined) return null;
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/** E.g. `room added: vip; room removed: checkout; rule changed: staff`; empty when nothing differs (or either side is unreadable). */
export function routingChanges(before: string | undefined, after: string): string {
  const a = parse(before);
  const b = parse(after);
  if (a === null || b === null) return '';
  const parts: string[] = [];
  for (const [kind, key] of [
    ['room', 'rooms'],
    ['rule', 'rules'],
  ] as const) {
    const old = byId(a[key]);
    const now = byId(b[key]);
    const added = [...now.keys()].filter((id) => !old.has(id));
    const removed = [...old.keys()].filter((id) => !now.has(id));
    const changed = [...now.keys()].filter((id) => old.has(id) && old.get(id) !== now.get(id));
    if (added.length > 0) parts.push(`${kind} added: ${added.join(', ')}`);
    if (removed.length > 0) parts.push(`${kind} removed: ${removed.join(', ')}`);
    if (changed.length > 0) parts.push(`${kind} changed: ${changed.join(', ')}`);
  }
  if (JSON.stringify(a.default_room) !== JSON.stringify(b.default_room))
    parts.push(`default_room: ${JSON.stringify(a.default_room ?? null)} -> ${JSON.stringify(b.default_room ?? null)}`);
  return parts.join('; ');
}
