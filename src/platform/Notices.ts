/**
 * News every server of the database hears: PostgreSQL's `LISTEN`/`NOTIFY`
 * on a PostgreSQL server, an in-memory hub on embedded PGlite (one process).
 * For what must reach the other servers at once and is not an account's work
 * (that goes to the account's owner as an entity message): a job finished, for
 * long-poll waiters on any server; the sandbox's test clock moved; a credential
 * revoked, which every server must stop honouring.
 *
 * A notice may be missed while a server's listening connection is down (a
 * database restart). Listeners then hear {@link resumed} once it is back, and
 * look again at whatever they were waiting for.
 *
 * @since 1.0.0
 */
import { PgClient } from "@effect/sql-pg"
import { Context, Duration, Effect, Latch, Layer, Option, PubSub, Queue, Stream } from "effect"
import { liveSleep } from "../domain/Time.ts"

/** What a listener hears after its server could not listen for a while: look again. */
export const resumed = "\u0000resumed"

/** The channels, each heard by every server. */
export const channels = {
  /** A job finished (its id): long-poll waiters on any server answer at once. */
  jobFinished: "outreach_job_finished",
  /** The sandbox's test clock moved (the instant, epoch ms): every server's test clock follows. */
  clockMoved: "outreach_clock_moved",
  /** What servers must forget of a credential: `credential:<id>` (revoked) or `workspace:<id>` (its status changed). */
  credentials: "outreach_credentials"
} as const

export type Channel = typeof channels[keyof typeof channels]

export class Notices extends Context.Service<Notices, {
  /** Tells every server, this one included, `payload` on `channel`. */
  readonly publish: (channel: Channel, payload: string) => Effect.Effect<void>
  /** What is published on `channel` from now on, by any server; {@link resumed} after a gap. */
  readonly listen: (channel: Channel) => Stream.Stream<string>
}>()("outreach/Notices") {
  /** On a PostgreSQL server when the database is one (`PgClient`), else in memory. */
  static readonly layer = Layer.effect(
    Notices,
    Effect.gen(function*() {
      const pg = yield* Effect.serviceOption(PgClient.PgClient)
      const hubs = new Map<Channel, PubSub.PubSub<string>>()
      const listening: Array<Latch.Latch> = []
      for (const channel of Object.values(channels)) {
        const hub = yield* PubSub.sliding<string>(4096)
        hubs.set(channel, hub)
        if (Option.isSome(pg)) listening.push(yield* relay(pg.value, channel, hub))
      }
      // Every channel is heard before the service starts: nothing published from then on is missed.
      yield* Effect.forEach(listening, (latch) => latch.await, { discard: true })
      const hubOf = (channel: Channel) => {
        const hub = hubs.get(channel)
        return hub === undefined ? Effect.die(`no channel ${channel}`) : Effect.succeed(hub)
      }
      const listen = (channel: Channel) => Stream.unwrap(Effect.map(hubOf(channel), Stream.fromPubSub))
      if (Option.isNone(pg)) {
        return Notices.of({
          publish: (channel, payload) => Effect.flatMap(hubOf(channel), (hub) => Effect.asVoid(PubSub.publish(hub, payload))),
          listen
        })
      }
      const client = pg.value
      return Notices.of({
        publish: (channel, payload) =>
          client.notify(channel, payload).pipe(
            Effect.catchCause((cause) => Effect.logWarning(`could not publish on ${channel}`, cause))
          ),
        listen
      })
    })
  )
}

/**
 * Keeps one connection listening on `channel` for the layer's lifetime, relaying what it hears to
 * `hub`; when the connection drops, listens again a second later and tells the listeners {@link resumed}.
 * Returns a latch that opens once it first listens.
 */
const relay = (pg: PgClient.PgClient, channel: Channel, hub: PubSub.PubSub<string>) =>
  Effect.gen(function*() {
    const listening = yield* Latch.make(false)
    yield* Effect.scoped(Effect.gen(function*() {
      const heard = yield* pg.listen(channel)
      yield* listening.open
      yield* PubSub.publish(hub, resumed)
      while (true) {
        const notice = yield* Queue.take(heard)
        yield* PubSub.publish(hub, notice.payload)
      }
    })).pipe(
      Effect.catchCause((cause) =>
        Effect.logWarning(`stopped hearing ${channel}; listening again in a second`, cause).pipe(
          Effect.andThen(liveSleep(Duration.seconds(1)))
        )
      ),
      Effect.forever,
      Effect.forkScoped
    )
    return listening
  })
