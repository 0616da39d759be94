import { assert, it } from "@effect/vitest"
import * as Recent from "../../src/platform/Recent.ts"

it("keeps at most its capacity, the oldest going first; a key already kept keeps its place", () => {
  const recent = Recent.make<string, number>(2)
  recent.add("a", 1)
  recent.add("b", 2)
  recent.add("a", 3)
  assert.strictEqual(recent.get("a"), 3)
  recent.add("c", 4)
  assert.isUndefined(recent.get("a"))
  assert.strictEqual(recent.get("b"), 2)
  assert.strictEqual(recent.get("c"), 4)
})

it("getOrAdd makes a value once per key kept, and again once the key has gone", () => {
  const recent = Recent.make<string, number>(2)
  let made = 0
  const make = () => ++made
  assert.strictEqual(recent.getOrAdd("a", make), 1)
  assert.strictEqual(recent.getOrAdd("a", make), 1)
  assert.strictEqual(recent.getOrAdd("b", make), 2)
  assert.strictEqual(recent.getOrAdd("c", make), 3)
  assert.strictEqual(made, 3)
  assert.strictEqual(recent.getOrAdd("a", make), 4)
})
