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
  /** An approval was created (its job's id): every server's expiry looks at the next approval due. */
  approvalCreated: "outreach_approval_created",
  /** What servers must forget of a credential: `credential:<id>` (revoked) or `workspace:<id>` (its status changed). */
  credentials: "outreach_credentials"
} as const

export type Channel = typeof channels[keyof typeof channels]

/**
 * The one PostgreSQL channel every notice travels on, as `<kind><separator><payload>`: a `LISTEN`
 * holds a connection of the pool for as long as it listens, so a server listens once, not once a kind.
 */
export const pgChannel = "outreach_notices"
const separator = "\u0001"

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
      const hubs = new Map<string, PubSub.PubSub<string>>()
      for (const channel of Object.values(channels)) hubs.set(channel, yield* PubSub.sliding<string>(4096))
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
      // Heard before the service starts: nothing published from then on is missed.
      yield* (yield* relay(client, hubs)).await
      return Notices.of({
        publish: (channel, payload) =>
          client.notify(pgChannel, channel + separator + payload).pipe(
            Effect.catchCause((cause) => Effect.logWarning(`could not publish on ${channel}`, cause))
          ),
        listen
      })
    })
  )
}

/**
 * Keeps one connection listening on {@link pgChannel} for the layer's lifetime, relaying each notice
 * to its kind's hub; when the connection drops, listens again a second later and tells every hub's
 * listeners {@link resumed}. Returns a latch that opens once it first listens.
 */
const relay = (pg: PgClient.PgClient, hubs: ReadonlyMap<string, PubSub.PubSub<string>>) =>
  Effect.gen(function*() {
    const listening = yield* Latch.make(false)
    yield* Effect.scoped(Effect.gen(function*() {
      const heard = yield* pg.listen(pgChannel)
      yield* listening.open
      for (const hub of hubs.values()) yield* PubSub.publish(hub, resumed)
      while (true) {
        const notice = yield* Queue.take(heard)
        const at = notice.payload.indexOf(separator)
        const hub = at < 0 ? undefined : hubs.get(notice.payload.slice(0, at))
        if (hub !== undefined) yield* PubSub.publish(hub, notice.payload.slice(at + separator.length))
      }
    })).pipe(
      Effect.catchCause((cause) =>
        Effect.logWarning("stopped hearing notices; listening again in a second", cause).pipe(
          Effect.andThen(liveSleep(Duration.seconds(1)))
        )
      ),
      Effect.forever,
      Effect.forkScoped
    )
    return listening
  })
