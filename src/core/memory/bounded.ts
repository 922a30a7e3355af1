// The tables the sandbox's memory is made of: a Map that forgets its oldest entries past a size, so
// nothing the room keeps for a reused sandbox grows without end, whatever the requests bring; and a
// table of such Maps, one per object, for entries that follow from an object rather than from text.
/** A Map that forgets its oldest entries past `max`. */
export class Bounded<K, V> {
  private readonly map = new Map<K, V>();
  constructor(private readonly max: number) {}
  get(key: K): V | undefined {
    return this.map.get(key);
  }
  set(key: K, value: V): void {
    this.map.delete(key);
    this.map.set(key, value);
    if (this.map.size > this.max) this.map.delete(this.map.keys().next().value as K);
  }
  delete(key: K): void {
    this.map.delete(key);
  }
  clear(): void {
    this.map.clear();
  }
  get size(): number {
    return this.map.size;
  }
}

/**
 * One Bounded table per object (a key object, a room's list of languages): the entries go with the
 * object, and a new object starts an empty table. Its size is not known (a WeakMap cannot be counted).
 */
export class PerObject<O extends object, K, V> {
  private tables = new WeakMap<O, Bounded<K, V>>();
  constructor(private readonly max: number) {}
  /** The table of `owner`, made empty on first use. */
  of(owner: O): Bounded<K, V> {
    let table = this.tables.get(owner);
    if (table === undefined) this.tables.set(owner, (table = new Bounded(this.max)));
    return table;
  }
  clear(): void {
    this.tables = new WeakMap();
  }
  get size(): null {
    return null;
  }
}
