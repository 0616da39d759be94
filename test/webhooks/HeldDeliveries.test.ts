import { assert, describe, it } from "@effect/vitest"
import type { NewDelivery } from "../../src/webhooks/DeliveryStore.ts"
import * as HeldDeliveries from "../../src/webhooks/HeldDeliveries.ts"

const delivery = (id: string): NewDelivery => ({
  id,
  workspaceId: "w",
  endpointId: "e",
  eventId: `event-${id}`,
  eventType: "account.paused",
  body: "{}",
  createdAtIso: "2026-01-01T00:00:00.000Z"
})

describe("HeldDeliveries", () => {
  it("a delivery is taken once: by its outcome, or as overdue, never both", () => {
    const held = HeldDeliveries.make()
    held.hold("c1", [delivery("a"), delivery("b")], 1_000)
    held.hold("c2", [delivery("c")], 3_000)
    assert.strictEqual(held.oldestSinceMs(), 1_000)
    assert.strictEqual(held.take("a")?.claimId, "c1")
    assert.isUndefined(held.take("a"))
    // Held at 1 s or earlier: only "b" is left of those.
    assert.deepStrictEqual(held.takeHeldSince(1_000).map((item) => item.delivery.id), ["b"])
    assert.deepStrictEqual(held.takeHeldSince(2_000), [])
    assert.strictEqual(held.size(), 1)
    assert.strictEqual(held.oldestSinceMs(), 3_000)
  })

  it("a claim ends once every delivery it held is written", () => {
    const held = HeldDeliveries.make()
    held.hold("c1", [delivery("a"), delivery("b")], 1_000)
    held.hold("c2", [delivery("c")], 1_000)
    const a = held.take("a")
    assert.isDefined(a)
    assert.deepStrictEqual(held.written(a === undefined ? [] : [a]), [])
    // Taken but not written (its statement failed): the claim stays, to lapse.
    held.take("c")
    assert.deepStrictEqual(held.written(held.takeAll()), ["c1"])
    assert.strictEqual(held.size(), 0)
    assert.isUndefined(held.oldestSinceMs())
  })

  it("holding nothing makes no claim", () => {
    const held = HeldDeliveries.make()
    held.hold("c1", [], 1_000)
    assert.deepStrictEqual(held.written([]), [])
    assert.strictEqual(held.size(), 0)
  })
})
