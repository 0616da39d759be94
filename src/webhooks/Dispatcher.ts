/**
 * Delivers the outbox's events to webhook endpoints, durably.
 *
 * Two steps, both in PostgreSQL so a restart (or another server) resumes
 * where the last one stopped, each in its own module:
 *
 * 1. Fan-out (`FanOut.ts`): events past the cursor become one delivery per
 *    enabled endpoint of their workspace subscribed to their type, written
 *    leased to this server (or held here unwritten) and handed to the attempts.
 * 2. Attempts (`Attempts.ts`): due deliveries are leased and attempted within
 *    the limits of attempts at once overall and per endpoint; each attempt is
 *    vetted, signed and sent pinned (`AttemptSender.ts`) and its outcome
 *    recorded in batches, a failure scheduling the next attempt on the
 *    `Backoff` curve (`AttemptRecorder.ts`). What the fan-out held unwritten
 *    is written under one lock (`HeldWriter.ts`).
 *
 * The two steps are two loops, so attempts go on while a backlog is fanned
 * out. Fan-out wakes on `wake` (in process), attempts on a finished attempt
 * or a fanned-out batch; both otherwise poll every `pollInterval` of LIVE
 * time: new events committed by any server are picked up, and under a test
 * clock (which only moves when told) due times still come from `Clock`.
 * Leases and signature timestamps are real time (`DeliveryLeases.ts`,
 * `AttemptSender.ts`). This module wires them, and makes the attempts asked
 * for by hand: a resend, a test event.
 */
import { Context, Duration, Effect, Layer } from "effect"
import type { Missing } from "../domain/Failures.ts"
import * as Time from "../domain/Time.ts"
import { Outbox } from "../events/Outbox.ts"
import * as AttemptRecorder from "./AttemptRecorder.ts"
import * as Attempts from "./Attempts.ts"
import * as AttemptSender from "./AttemptSender.ts"
import * as DeliveryLeases from "./DeliveryLeases.ts"
import { DeliveryStore, type DeliveryToAttempt } from "./DeliveryStore.ts"
import { EndpointTable } from "./EndpointTable.ts"
import { type DeliveryRecord, endpointNotFound, WebhookEndpoints } from "./Endpoints.ts"
import * as FanOut from "./FanOut.ts"
import * as HeldWriter from "./HeldWriter.ts"
import { deliveryTimeoutMs } from "./SafeTransport.ts"
import { testEventBody, testEventType } from "../domain/WebhookPayload.ts"

/**
 * Tuning of the dispatcher: the attempts' (`pollInterval`, `concurrency`, `perEndpoint`,
 * `timeoutMs`, the spec's 10 seconds) and the fan-out's (`fanOutBatch`). A reference: the
 * defaults need no wiring.
 */
export interface DispatcherSettings extends Attempts.AttemptSettings, FanOut.FanOutSettings {}

/** The dispatcher's settings; override with `Layer.succeed(DispatcherSettings, {...})`. */
export const DispatcherSettings = Context.Reference<DispatcherSettings>("outreach/WebhookDispatcherSettings", {
  defaultValue: () => ({
    pollInterval: Duration.millis(500),
    concurrency: 64,
    perEndpoint: 4,
    timeoutMs: deliveryTimeoutMs,
    fanOutBatch: 500
  })
})

export class WebhookDispatcher extends Context.Service<WebhookDispatcher, {
  /** Wakes the loop now (call after committing events, to skip the poll wait). */
  readonly wake: Effect.Effect<void>
  /** One round: fan out new events, start the due attempts. */
  readonly runOnce: Effect.Effect<void>
  /** One manual attempt now, same delivery id; answers with the delivery including it. */
  readonly resend: (
    workspaceId: string,
    endpointId: string,
    deliveryId: string
  ) => Effect.Effect<DeliveryRecord, Missing>
  /**
   * A test event (`webhook.test`) sent to one endpoint now, whatever its events, through the path
   * of every delivery; answers with the delivery, its one attempt and the response.
   */
  readonly sendTest: (workspaceId: string, endpointId: string, sentBy: string) => Effect.Effect<DeliveryRecord, Missing>
}>()("outreach/WebhookDispatcher") {
  /** The dispatcher with its loop running for the layer's lifetime; its endpoints, deliveries and outbox left open. */
  static readonly layerNoDeps = Layer.effect(
    WebhookDispatcher,
    Effect.gen(function*() {
      const endpoints = yield* WebhookEndpoints
      const deliveries = yield* DeliveryStore
      const endpointTable = yield* EndpointTable
      const settings = yield* DispatcherSettings
      const leases = yield* DeliveryLeases.make(settings.timeoutMs)
      // Built in this order, so the scope closes the other way round: the fan-out's loop stops,
      // then the attempts' (their attempts in flight finish and are recorded, what is held is
      // written or released), then the recorder, and the connections last.
      const send = yield* AttemptSender.make(settings.timeoutMs)
      const writer = yield* HeldWriter.make(leases)
      const recorder = yield* AttemptRecorder.make(writer)
      const attempts = yield* Attempts.make({ settings, leases, send, recorder, writer })
      const fanOut = yield* FanOut.make({ settings, leases, attempts })

      const resend = Effect.fn("WebhookDispatcher.resend")(function*(
        workspaceId: string,
        endpointId: string,
        deliveryId: string
      ) {
        yield* endpoints.delivery(workspaceId, endpointId, deliveryId)
        const target = yield* deliveries.toAttempt(deliveryId)
        // By hand, a disabled endpoint's delivery is sent too.
        const endpoint = target === undefined ? undefined : (yield* endpointTable.secretsOf([target.endpointId])).get(target.endpointId)
        if (target !== undefined && endpoint !== undefined) {
          const outcome = yield* send(target, endpoint)
          const atMs = (yield* Time.now).ms
          yield* writer.exclusive(recorder.record([{ target, trigger: "manual", outcome, atMs }]))
        }
        return yield* endpoints.delivery(workspaceId, endpointId, deliveryId)
      })

      const sendTest = Effect.fn("WebhookDispatcher.sendTest")(function*(
        workspaceId: string,
        endpointId: string,
        sentBy: string
      ) {
        const webhook = yield* endpoints.get(workspaceId, endpointId)
        // By hand, as a resend: a disabled endpoint, or one whose events leave tests out, is sent it too.
        const endpoint = (yield* endpointTable.secretsOf([endpointId])).get(endpointId)
        if (endpoint === undefined) return yield* endpointNotFound(endpointId)
        const now = yield* Time.now
        const eventId = crypto.randomUUID()
        const body = testEventBody({ id: eventId, createdAt: now.iso, webhookId: endpointId, sentBy }, webhook.mode)
        const target: DeliveryToAttempt = {
          id: crypto.randomUUID(),
          endpointId,
          eventType: testEventType,
          body,
          status: "pending",
          attemptCount: 0
        }
        // The path of every delivery: vetted, signed with a fresh timestamp, sent pinned; then written
        // once with its outcome, as a held delivery is. Not retried: a test is answered now or not.
        const outcome = yield* send(target, endpoint)
        const atMs = (yield* Time.now).ms
        yield* writer.exclusive(deliveries.record([{
          attempt: AttemptRecorder.attemptRecord({ target, trigger: "manual", outcome, atMs }),
          change: outcome.ok ? { _tag: "succeeded", counted: false } : { _tag: "failed", attemptCount: 0 },
          fresh: { ...target, workspaceId, eventId, createdAtIso: now.iso }
        }]))
        return yield* endpoints.delivery(workspaceId, endpointId, target.id)
      })

      return WebhookDispatcher.of({
        wake: fanOut.wake,
        /** The whole backlog fanned out, then what is due attempted. */
        runOnce: Effect.andThen(fanOut.backlog, attempts.startDue),
        resend,
        sendTest
      })
    })
  )

  /** `layerNoDeps` with its services' layers. */
  static readonly layer = WebhookDispatcher.layerNoDeps.pipe(Layer.provide([DeliveryStore.layer, Outbox.layer, WebhookEndpoints.layer, EndpointTable.layer]))
}

