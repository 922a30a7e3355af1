// A Map that forgets its oldest entries past a size: what the room keeps for a reused sandbox (the
// sandbox's memory, the pages' and languages' worded text) never grows without end, whatever the
// requests bring.
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
