/**
 * The dispatcher's slots: the limits overall and per endpoint, endpoints in
 * turn, a delivery whose lease could lapse during its attempt left out.
 */
import { assert, describe, it } from "@effect/vitest"
import * as AttemptSlots from "../../src/webhooks/AttemptSlots.ts"

const delivery = (id: string, endpointId: string) => ({ id, endpointId })
const ids = (picked: ReadonlyArray<{ readonly id: string }>) => picked.map((target) => target.id)

describe("AttemptSlots", () => {
  it("keeps the limits overall and per endpoint", () => {
    const slots = AttemptSlots.make<ReturnType<typeof delivery>>({ concurrency: 3, perEndpoint: 2, timeoutMs: 10 })
    for (const id of ["a1", "a2", "a3", "a4"]) slots.add(delivery(id, "a"), 1_000)
    for (const id of ["b1", "b2"]) slots.add(delivery(id, "b"), 1_000)
    assert.deepStrictEqual(ids(slots.pick(0)), ["a1", "a2", "b1"])
    assert.deepStrictEqual(ids(slots.pick(0)), [])
    assert.strictEqual(slots.held("a"), 4)
    assert.strictEqual(slots.waiting(), 3)
    slots.finish(delivery("b1", "b"))
    // A slot is free, but "a" has its two in flight.
    assert.deepStrictEqual(ids(slots.pick(0)), ["b2"])
    slots.finish(delivery("a1", "a"))
    assert.deepStrictEqual(ids(slots.pick(0)), ["a3"])
    assert.isTrue(slots.isInFlight("a3"))
    assert.strictEqual(slots.inFlight(), 3)
    assert.deepStrictEqual(ids(slots.drain()), ["a4"])
    assert.strictEqual(slots.waiting(), 0)
  })

  it("serves endpoints in turn: one served goes behind those it kept waiting", () => {
    const slots = AttemptSlots.make<ReturnType<typeof delivery>>({ concurrency: 2, perEndpoint: 2, timeoutMs: 10 })
    for (const id of ["a1", "a2", "a3"]) slots.add(delivery(id, "a"), 1_000)
    slots.add(delivery("b1", "b"), 1_000)
    assert.deepStrictEqual(ids(slots.pick(0)), ["a1", "a2"])
    slots.finish(delivery("a1", "a"))
    assert.deepStrictEqual(ids(slots.pick(0)), ["b1"])
    slots.finish(delivery("a2", "a"))
    assert.deepStrictEqual(ids(slots.pick(0)), ["a3"])
  })

  it("leaves out a delivery whose lease could lapse during its attempt", () => {
    const slots = AttemptSlots.make<ReturnType<typeof delivery>>({ concurrency: 4, perEndpoint: 4, timeoutMs: 100 })
    slots.add(delivery("short", "a"), 150)
    slots.add(delivery("long", "a"), 1_000)
    assert.deepStrictEqual(ids(slots.pick(60)), ["long"])
    assert.strictEqual(slots.waiting(), 0)
    assert.strictEqual(slots.held("a"), 1)
  })

  it("a finish twice, or of a delivery never picked, frees nothing more", () => {
    const slots = AttemptSlots.make<ReturnType<typeof delivery>>({ concurrency: 1, perEndpoint: 1, timeoutMs: 0 })
    slots.add(delivery("x", "a"), 10)
    slots.add(delivery("y", "a"), 10)
    assert.deepStrictEqual(ids(slots.pick(0)), ["x"])
    slots.finish(delivery("y", "a"))
    assert.deepStrictEqual(ids(slots.pick(0)), [])
    slots.finish(delivery("x", "a"))
    slots.finish(delivery("x", "a"))
    assert.deepStrictEqual(ids(slots.pick(0)), ["y"])
    assert.strictEqual(slots.inFlight(), 1)
  })

  it("lets an endpoint's waiting deliveries go, leaving those in flight to finish", () => {
    const slots = AttemptSlots.make<ReturnType<typeof delivery>>({ concurrency: 4, perEndpoint: 1, timeoutMs: 0 })
    for (const id of ["a1", "a2", "a3"]) slots.add(delivery(id, "a"), 10)
    slots.add(delivery("b1", "b"), 10)
    assert.deepStrictEqual(ids(slots.pick(0)), ["a1", "b1"])
    assert.deepStrictEqual([...slots.endpoints()].sort(), ["a", "b"])
    assert.deepStrictEqual(ids(slots.dropEndpoint("a")), ["a2", "a3"])
    assert.strictEqual(slots.waiting(), 0)
    assert.strictEqual(slots.held("a"), 1)
    slots.finish(delivery("a1", "a"))
    slots.finish(delivery("b1", "b"))
    assert.deepStrictEqual(slots.endpoints(), [])
  })
})
