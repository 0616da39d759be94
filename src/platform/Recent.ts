/**
 * A map of the most recently added entries: past `capacity`, adding one drops the oldest. For
 * in-process memos on the request path, where a map without a bound would grow with every caller.
 */

export interface Recent<K, V> {
  readonly get: (key: K) => V | undefined
  /** Adds the entry (a key already present keeps its place); past the capacity the oldest goes. */
  readonly add: (key: K, value: V) => void
  /** The entry of `key`; when there is none, `make`'s value, added (so `make` runs once per key kept). */
  readonly getOrAdd: (key: K, make: () => V) => V
}

export const make = <K, V>(capacity: number): Recent<K, V> => {
  const entries = new Map<K, V>()
  const add = (key: K, value: V) => {
    if (!entries.has(key) && entries.size >= capacity) {
      const oldest = entries.keys().next()
      if (oldest.done !== true) entries.delete(oldest.value)
    }
    entries.set(key, value)
  }
  return {
    get: (key) => entries.get(key),
    add,
    getOrAdd: (key, make) => {
      const known = entries.get(key)
      if (known !== undefined) return known
      const value = make()
      add(key, value)
      return value
    }
  }
}
