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

/**
 * What `compute` gives for a list (a file's tools), computed once per list object. The length is
 * checked too: a loader may still be adding to a list when a rule first asks.
 */
export function perList<T, V>(compute: (list: readonly T[]) => V): (list: readonly T[]) => V {
  const known = new WeakMap<readonly T[], { length: number; value: V }>();
  return (list) => {
    let k = known.get(list);
    if (!k || k.length !== list.length) known.set(list, (k = { length: list.length, value: compute(list) }));
    return k.value;
  };
}
