import { createHmac } from "node:crypto"
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import {
  attemptSigner,
  isSecret,
  newSecret,
  sign,
  signatureHeaders,
  signNow,
  type VerifyResult,
  verifyWebhook,
  verifyWebhookEffect,
  webhookHeaders
} from "../../src/webhooks/Signature.ts"

// An independent computation of the spec's rule, written without the module under test.
const reference = (secret: string, timestamp: number, body: string): string =>
  createHmac("sha256", Buffer.from(secret, "utf8")).update(Buffer.from(`${timestamp}.${body}`, "utf8")).digest("hex")

const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSwcgZHcmR4lzo="
const body = `{"id":"0b5f1d6e-1c2a-4d2e-9a43-7f0e0c9b1a11","type":"job.completed","data":{"text":"héllo ✓"}}`
const ts = 1_750_000_000

describe("Signature", () => {
  it.effect("newSecret is whsec_ followed by 32 random bytes in base64", () =>
    Effect.gen(function*() {
      const a = yield* newSecret
      const b = yield* newSecret
      assert.isTrue(a.startsWith("whsec_"))
      assert.strictEqual(Buffer.from(a.slice(6), "base64").length, 32)
      assert.strictEqual(Buffer.from(a.slice(6), "base64").toString("base64"), a.slice(6))
      assert.isTrue(isSecret(a))
      assert.notStrictEqual(a, b)
      assert.isFalse(isSecret("whsec_short"))
    }))

  it("sign is lowercase hex HMAC-SHA256 of `<timestamp>.<raw body>` keyed with the whole secret", () => {
    const signature = sign(secret, ts, body)
    assert.match(signature, /^[0-9a-f]{64}$/)
    assert.strictEqual(signature, reference(secret, ts, body))
    assert.strictEqual(sign(secret, ts, Buffer.from(body, "utf8")), signature)
    // Keyed with the prefix included: the secret without `whsec_` gives another signature.
    assert.notStrictEqual(signature, reference(secret.slice(6), ts, body))
    assert.notStrictEqual(signature, sign(secret, ts + 1, body))
  })

  it("signatureHeaders and webhookHeaders carry the spec's headers", () => {
    assert.deepStrictEqual(signatureHeaders(secret, ts, body), {
      "svc-signature-timestamp": String(ts),
      "svc-signature": reference(secret, ts, body)
    })
    assert.deepStrictEqual(
      webhookHeaders({ secret, eventType: "job.completed", deliveryId: "dlv_1", timestampSeconds: ts, rawBody: body }),
      {
        "content-type": "application/json",
        "user-agent": "svc-Webhooks/1.0",
        "svc-event": "job.completed",
        "svc-delivery": "dlv_1",
        "svc-signature-timestamp": String(ts),
        "svc-signature": reference(secret, ts, body)
      }
    )
  })

  it("attemptSigner signs as webhookHeaders does, with keys kept per secret (a rotation's two among them)", () => {
    const signed = attemptSigner()
    const next = "whsec_9r8GKYqrTwjUPD8ILPZIo2LaLaSwcgZHcmR4lzoMfKQ="
    const options = { eventType: "job.completed", deliveryId: "dlv_1", timestampSeconds: ts, rawBody: body }
    for (let round = 0; round < 2; round++) {
      assert.deepStrictEqual(signed({ ...options, secret }), webhookHeaders({ ...options, secret }))
      const rotating = signed({ ...options, secret, nextSecret: next })
      assert.strictEqual(rotating["svc-signature"], reference(secret, ts, body))
      assert.strictEqual(rotating["svc-signature-next"], reference(next, ts, body))
      assert.strictEqual(signed({ ...options, secret: next })["svc-signature"], reference(next, ts, body))
    }
  })

  it.effect("signNow signs with the Clock's current second", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(ts * 1000 + 999)
      const headers = yield* signNow({ secret, eventType: "account.paused", deliveryId: "d", rawBody: body })
      assert.strictEqual(headers["svc-signature-timestamp"], String(ts))
      assert.strictEqual(headers["svc-signature"], reference(secret, ts, body))
    }))

  describe("verifyWebhook", () => {
    const good = { "svc-signature-timestamp": String(ts), "svc-signature": reference(secret, ts, body) }

    it("accepts a correctly signed request (record in any case, Headers, bytes body)", () => {
      assert.deepStrictEqual(verifyWebhook(secret, good, body, { nowSeconds: ts }), { ok: true, timestampSeconds: ts })
      const upper = { "SVC-Signature-Timestamp": String(ts), "Svc-Signature": reference(secret, ts, body) }
      assert.isTrue(verifyWebhook(secret, upper, body, { nowSeconds: ts + 10 }).ok)
      assert.isTrue(verifyWebhook(secret, new Headers(good), body, { nowSeconds: ts }).ok)
      assert.isTrue(verifyWebhook(secret, good, new TextEncoder().encode(body), { nowSeconds: ts }).ok)
      // Node delivers repeated headers as arrays.
      assert.isTrue(
        verifyWebhook(secret, { ...good, "svc-signature": [good["svc-signature"]] }, body, { nowSeconds: ts }).ok
      )
    })

    it("accepts either secret during a rotation, and refuses when none matches", () => {
      assert.isTrue(verifyWebhook(["whsec_old", secret], good, body, { nowSeconds: ts }).ok)
      assert.isTrue(verifyWebhook([secret, "whsec_new"], good, body, { nowSeconds: ts }).ok)
      assert.deepStrictEqual(verifyWebhook(["whsec_a", "whsec_b"], good, body, { nowSeconds: ts }), {
        ok: false,
        reason: "badSignature"
      })
      assert.deepStrictEqual(verifyWebhook([], good, body, { nowSeconds: ts }), { ok: false, reason: "badSignature" })
    })

    it("refuses a changed body, a changed timestamp, a wrong secret and malformed signatures", () => {
      const bad: VerifyResult = { ok: false, reason: "badSignature" }
      assert.deepStrictEqual(verifyWebhook(secret, good, body + " ", { nowSeconds: ts }), bad)
      assert.deepStrictEqual(
        verifyWebhook(secret, { ...good, "svc-signature-timestamp": String(ts + 1) }, body, { nowSeconds: ts }),
        bad
      )
      assert.deepStrictEqual(verifyWebhook(secret.slice(6), good, body, { nowSeconds: ts }), bad)
      assert.deepStrictEqual(
        verifyWebhook(secret, { ...good, "svc-signature": "abc" }, body, { nowSeconds: ts }),
        bad
      )
      assert.deepStrictEqual(
        verifyWebhook(secret, { ...good, "svc-signature": "z".repeat(64) }, body, { nowSeconds: ts }),
        bad
      )
    })

    it("reports missing headers and bad timestamps", () => {
      assert.deepStrictEqual(
        verifyWebhook(secret, { "svc-signature": good["svc-signature"] }, body, { nowSeconds: ts }),
        { ok: false, reason: "missingHeader" }
      )
      assert.deepStrictEqual(
        verifyWebhook(secret, new Headers({ "svc-signature-timestamp": String(ts) }), body, { nowSeconds: ts }),
        { ok: false, reason: "missingHeader" }
      )
      for (const value of ["abc", "1.5", "-1", "1e9"]) {
        assert.deepStrictEqual(
          verifyWebhook(secret, { ...good, "svc-signature-timestamp": value }, body, { nowSeconds: ts }),
          { ok: false, reason: "badTimestamp" },
          value
        )
      }
    })

    it("enforces the tolerance window (default 5 minutes) in both directions", () => {
      assert.isTrue(verifyWebhook(secret, good, body, { nowSeconds: ts + 300 }).ok)
      assert.deepStrictEqual(verifyWebhook(secret, good, body, { nowSeconds: ts + 301 }), {
        ok: false,
        reason: "tooOld"
      })
      assert.isTrue(verifyWebhook(secret, good, body, { nowSeconds: ts - 300 }).ok)
      assert.deepStrictEqual(verifyWebhook(secret, good, body, { nowSeconds: ts - 301 }), {
        ok: false,
        reason: "inFuture"
      })
      assert.deepStrictEqual(verifyWebhook(secret, good, body, { nowSeconds: ts + 61, toleranceSeconds: 60 }), {
        ok: false,
        reason: "tooOld"
      })
    })

    it("defaults now to the system clock", () => {
      const now = Math.floor(Date.now() / 1000)
      const headers = signatureHeaders(secret, now, body)
      assert.isTrue(verifyWebhook(secret, headers, body).ok)
      const stale = signatureHeaders(secret, now - 3600, body)
      assert.deepStrictEqual(verifyWebhook(secret, stale, body), { ok: false, reason: "tooOld" })
    })
  })

  it.effect("verifyWebhookEffect reads now from Clock and fails with a tagged error", () =>
    Effect.gen(function*() {
      const headers = signatureHeaders(secret, ts, body)
      yield* TestClock.setTime(ts * 1000)
      assert.strictEqual(yield* verifyWebhookEffect(secret, headers, body), ts)
      yield* TestClock.adjust("6 minutes")
      const error = yield* Effect.flip(verifyWebhookEffect(secret, headers, body))
      assert.strictEqual(error._tag, "WebhookSignatureInvalid")
      assert.strictEqual(error.reason, "tooOld")
      assert.include(error.message, "tooOld")
    }))
})
