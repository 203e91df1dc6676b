/**
 * A cache of what a pure function gives for a string. Rules ask the same questions of the same
 * names and descriptions many times over (catalogues repeat them across tools); the answers are
 * kept, and the cache is emptied when it reaches `max` entries, which bounds its memory on huge
 * catalogues.
 */
export class StringMemo<V> {
  private readonly map = new Map<string, V>();

  constructor(
    private readonly compute: (key: string) => V,
    readonly max: number,
  ) {}

  get(key: string): V {
    let v = this.map.get(key);
    if (v === undefined) {
      v = this.compute(key);
      if (this.map.size >= this.max) this.map.clear();
      this.map.set(key, v);
    }
    return v;
  }

  get size(): number {
    return this.map.size;
  }
}
