/**
 * Seeded randomness for the sandbox network. Every value the sandbox invents
 * comes from a generator seeded by a hash of the things it depends on (the
 * profile address, the account, the week...), so the same inputs always give
 * the same answer and `Math.random` is never used.
 */

/**
 * A 32-bit hash of the parts (FNV-1a over UTF-16 code units, then the
 * murmur3 finaliser so that similar strings land far apart).
 */
export const hash32 = (...parts: ReadonlyArray<string | number>): number => {
  let h = 0x811c9dc5
  const text = parts.join("\u0001")
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i)
    h = Math.imul(h, 0x01000193)
  }
  h ^= h >>> 16
  h = Math.imul(h, 0x85ebca6b)
  h ^= h >>> 13
  h = Math.imul(h, 0xc2b2ae35)
  h ^= h >>> 16
  return h >>> 0
}

/** A deterministic source of pseudo-random values (mulberry32). */
export interface Rng {
  /** A float in [0, 1). */
  readonly next: () => number
  /** An integer in [min, max], both included. */
  readonly int: (min: number, max: number) => number
  /** A float in [min, max). */
  readonly float: (min: number, max: number) => number
  /** True with probability `p`. */
  readonly chance: (p: number) => boolean
  /** One item, uniformly. */
  readonly pick: <A>(items: ReadonlyArray<A>) => A
  /** One item, with probability proportional to its weight. */
  readonly weighted: <A>(items: ReadonlyArray<readonly [A, number]>) => A
  /** `count` distinct items (fewer when the list is shorter), in random order. */
  readonly sample: <A>(items: ReadonlyArray<A>, count: number) => ReadonlyArray<A>
}

/** A generator seeded from a 32-bit integer. */
export const rngFromSeed = (seed: number): Rng => {
  let state = seed >>> 0
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  const int = (min: number, max: number): number => min + Math.floor(next() * (max - min + 1))
  const pick = <A>(items: ReadonlyArray<A>): A => {
    if (items.length === 0) throw new RangeError("Rng.pick: empty list")
    return items[Math.floor(next() * items.length)]
  }
  const weighted = <A>(items: ReadonlyArray<readonly [A, number]>): A => {
    const total = items.reduce((sum, [, weight]) => sum + weight, 0)
    let roll = next() * total
    for (const [item, weight] of items) {
      roll -= weight
      if (roll < 0) return item
    }
    return items[items.length - 1][0]
  }
  const sample = <A>(items: ReadonlyArray<A>, count: number): ReadonlyArray<A> => {
    const pool = [...items]
    const size = Math.min(count, pool.length)
    for (let i = 0; i < size; i++) {
      const j = i + Math.floor(next() * (pool.length - i))
      const swap = pool[i]
      pool[i] = pool[j]
      pool[j] = swap
    }
    return pool.slice(0, size)
  }
  return {
    next,
    int,
    float: (min, max) => min + next() * (max - min),
    chance: (p) => next() < p,
    pick,
    weighted,
    sample
  }
}

/** A generator seeded by the hash of the parts: `rng("person", slug)`. */
export const rng = (...parts: ReadonlyArray<string | number>): Rng => rngFromSeed(hash32(...parts))
