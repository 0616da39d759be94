/**
 * Chaos 9 (issue #30): `kill -9` during live writes. One server on a live workspace, on the
 * Unipile provider double running in this process (over HTTP, a slow provider: every write takes
 * 0.2 to 1.5 s, done at a random moment of it), 150 seats signed in natively, two writes each of
 * the eight writes Unipile supports (invitations, messages, posts, comments, reactions, accepting,
 * declining and withdrawing invitations): 300 writes. The server is killed while writes are in
 * flight on the provider, four times, and restarted at once.
 *
 * A live workspace runs on real time (the test clock serves none), and the Governor spaces an
 * account's writes by 45 to 120 s: so many seats with two writes each, the first wave at once and
 * the second spread over the next two minutes.
 *
 * Counted on the provider's own record (`performed`, every write it carried out): writes sent
 * twice (0), and each job's writes on the network: a completed job's once, a failed or never
 * acknowledged one's never. From the database: jobs lost or stuck (0) and failed `interrupted` (only
 * for commands the network cannot tell about; every write here can tell, so 0), counted per command.
 *
 * A seat's two jobs are created concurrently, like a client's independent requests: a withdrawal
 * created (given its place in the seat's queue) before its invitation fails `notFound`, a refusal
 * that never reaches the network, as a real one would. A creation the killed process was handling
 * answers 409 until its idempotency claim is taken over (2 minutes): never acknowledged, never sent.
 *
 * Measured (2 cores, beside another chaos measurement): 300 writes, 295 acknowledged, 287 completed,
 * 8 failed (withdrawals before their invitation, `notFound`), 0 lost, 0 stuck, 0 sent twice,
 * 0 interrupted; 34 writes left running by the killed process, 31 completed from the provider's
 * record and 3 queued again; about 135 s.
 */
import { randomBytes } from "node:crypto"
import { assert, it } from "@effect/vitest"
import { Effect, Fiber } from "effect"
import { SqlClient } from "effect/sql"
import type { WriteCommand } from "../../src/domain/Commands.ts"
import { cli, send } from "../support/Processes.ts"
import { member, posts } from "../support/unipile/Directory.ts"
import * as ProviderDouble from "../support/unipile/ProviderDouble.ts"
import type { Account } from "../support/unipile/State.ts"
import * as Chaos from "./support/Chaos.ts"

const scenario = "9"
const title = "9. kill -9 four times during 300 live writes on 150 seats (Unipile double, real time)"
const seats = 150
const kills = 4
/** API keys the seats' requests are shared out among (each may send 600 a minute). */
const keysCount = 6
const apiKey = "chaos-unipile-key"
const run = randomBytes(4).toString("hex")
/** Real time the writes may take once created: pacing spreads the second writes over up to 120 s, and every kill stops the seats for a while. */
const budgetMs = 240_000

/** The double's account of a seat, by the username it signed in with. */
const providerAccount = (double: ProviderDouble.ProviderDouble, username: string) => {
  const found = [...double.accounts.values()].find((one) => one.username === username)
  if (found === undefined) throw new Error(`no provider account for ${username}`)
  return found
}

/** A planned job and how to know its write on the provider's record. */
interface LiveJob extends Chaos.PlannedJob {
  readonly wentOut: (write: ProviderDouble.Performed) => boolean
}

/** Seats connected on the live workspace: signed in natively on the provider, in autopilot, with room for a post. */
const connectSeats = (fleet: Chaos.Fleet, databaseUrl: string, double: ProviderDouble.ProviderDouble) =>
  Effect.gen(function*() {
    const base = fleet.base(fleet.live()[0])
    const me = yield* send("GET", `${base}/v1/me`, Chaos.chaosKey)
    const granted = yield* cli(["workspace", "seats", String(me.body.orgId), String(seats)], { DATABASE_URL: databaseUrl })
    if (granted.code !== 0) return yield* Effect.die(new Error(`workspace seats failed:\n${granted.output}`))
    // Keys of the workspace, each with 600 requests a minute of its own, shared out among the seats.
    const keys = yield* Effect.forEach(Array.from({ length: keysCount }, (_, i) => i), (i) =>
      Effect.gen(function*() {
        const created = yield* send("POST", `${base}/v1/keys`, Chaos.chaosKey, { name: `chaos load ${i}` })
        if (created.status !== 201) return yield* Effect.die(new Error(`creating a key: ${JSON.stringify(created.body)}`))
        return String(created.body.value)
      }))
    return yield* Effect.forEach(Array.from({ length: seats }, (_, i) => i), (i) =>
      Effect.gen(function*() {
        const key = keys[i % keysCount]
        const created = yield* send("POST", `${base}/v1/accounts/connect`, key, { label: `live ${i}`, timezone: "UTC" })
        if (created.status !== 201) return yield* Effect.die(new Error(`connect: ${JSON.stringify(created.body)}`))
        const id = String(created.body.account.id)
        // `sales`: a Sales Navigator seat (notes without a monthly quota).
        const username = `seat${i}.sales@chaos.test`
        const signedIn = yield* send("POST", `${base}/v1/accounts/${id}/native-auth`, key, { username, password: "pw" })
        if (signedIn.body?.status !== "connected") return yield* Effect.die(new Error(`native-auth: ${JSON.stringify(signedIn.body)}`))
        // A day-one seat may post once (a fifth of 5).
        yield* Chaos.autopilot(base, id, [...Chaos.salesNavLimits, { category: "posts", period: "daily", maxValue: 5 }], key)
        return { id, key, provider: providerAccount(double, username) }
      }), { concurrency: 4 })
  })

/** Two writes a seat, of five kinds, so that every supported write is there; each names its seat's own targets once. */
const plan = (seatsOf: ReadonlyArray<{ readonly id: string; readonly key: string; readonly provider: Account }>) =>
  seatsOf.flatMap(({ id, key, provider }, a): Array<LiveJob> => {
    const token = (n: number) => `chaos-${run}-${a}-${n}`
    const text = (n: number) => `Hello, ${token(n)}.`
    const mine = (write: ProviderDouble.Performed) => write.accountId === provider.id
    const has = (write: ProviderDouble.Performed, field: string, value: string) => {
      const sent = write.fields[field]
      return (typeof sent === "string" ? [sent] : sent ?? []).some((one) => one.includes(value))
    }
    const job = (n: number, command: WriteCommand, input: Record<string, unknown>, wentOut: LiveJob["wentOut"]): LiveJob => ({
      token: token(n),
      account: id,
      command,
      input,
      via: 0,
      key,
      id: undefined,
      createdAtMs: undefined,
      wentOut: (write) => mine(write) && wentOut(write)
    })
    const [lena, aikoInvited] = provider.received
    // People no other seat writes to (a workspace's seats never both invite or cold-message one person).
    const someone = (n: number) => member(`member-${token(n)}`)
    const invite = (n: number) =>
      job(n, "connect", { person: someone(n).slug, note: text(n) }, (w) =>
        w.route === "users.invite" && has(w, "provider_id", someone(n).providerId) && has(w, "message", token(n)))
    const inmail = (n: number) =>
      job(n, "send_message", { person: someone(n).slug, text: text(n), inmail: true, subject: "Hello" }, (w) =>
        w.route === "chats.start" && has(w, "attendees_ids", someone(n).providerId) && has(w, "text", token(n)))
    const react = (n: number, post: string) =>
      job(n, "react", { post, reaction: "insightful" }, (w) => w.route === "posts.reaction" && has(w, "post_id", post))
    const handle = (n: number, command: "accept_invite" | "decline_invite", invitation: string) =>
      job(n, command, { invitationId: invitation }, (w) => w.route === "users.invite.handle" && w.path.endsWith(`/${invitation}`))
    switch (a % 5) {
      case 0:
        return [invite(0), inmail(1)]
      case 1:
        return [
          job(0, "create_post", { text: text(0) }, (w) => w.route === "posts.create" && has(w, "text", token(0))),
          job(1, "comment", { post: posts[0].id, text: text(1) }, (w) => w.route === "posts.comment" && has(w, "text", token(1)))
        ]
      case 2:
        return [react(0, posts[1].id), handle(1, "accept_invite", lena.id)]
      case 3:
        return [invite(0), job(1, "withdraw_invite", { person: someone(0).slug }, (w) => w.route === "users.invite.cancel")]
      default:
        return [handle(0, "decline_invite", aikoInvited.id), react(1, posts[2].id)]
    }
  })

const realSleep = Chaos.realSleep

/** Waits (real time, a bound) until at least `count` writes are in flight on the provider; answers how many are. */
const inFlight = (double: ProviderDouble.ProviderDouble, count: number, withinMs: number) =>
  Effect.gen(function*() {
    const until = Date.now() + withinMs
    while (double.inFlight() < count && Date.now() < until) yield* realSleep(20)
    return double.inFlight()
  })

const openJobs = (query: Chaos.Query, ids: ReadonlyArray<string>) =>
  query(Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const [row] = yield* sql<{ open: string }>`
      SELECT count(*) AS open FROM jobs WHERE id::text IN ${sql.in(ids)} AND status NOT IN ('completed', 'failed', 'cancelled')`
    return Number(row.open)
  }))

const byCommand = (query: Chaos.Query, ids: ReadonlyArray<string>) =>
  query(Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return yield* sql<{ command: string; status: string; error: string | null; n: string }>`
      SELECT kind AS command, status, error->>'type' AS error, count(*) AS n FROM jobs WHERE id::text IN ${sql.in(ids)}
      GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`
  }))

it.live(`chaos ${title}`, () =>
  Effect.gen(function*() {
    const began = Date.now()
    const double = yield* Effect.acquireRelease(
      Effect.promise(() => ProviderDouble.start({ apiKey, writeLatencyMs: { min: 200, max: 1500 } })),
      (started) => Effect.promise(() => started.close())
    )
    const { postgres, query, fleet } = yield* Chaos.started(scenario, ["a"], {
      OUTREACH_CLOCK: "system",
      OUTREACH_NETWORK: "unipile",
      UNIPILE_DSN: double.dsn,
      UNIPILE_API_KEY: apiKey,
      UNIPILE_WEBHOOK_SECRET: "chaos-unipile-webhook-secret"
    })
    const server = fleet.servers[0]
    const seatsOf = yield* connectSeats(fleet, postgres.url, double)
    const setUpMs = Date.now() - began
    Chaos.log(scenario, `${seats} live seats signed in on the provider double in ${setUpMs} ms`)
    const jobs = plan(seatsOf)
    const notes: Array<string> = []

    // Every job created at once (each under its token as Idempotency-Key: a creation cut by a kill is asked again).
    const answers = new Map<string, number>()
    const answered = (status: number | undefined) => {
      const name = status === undefined ? "none" : String(status)
      answers.set(name, (answers.get(name) ?? 0) + 1)
    }
    const createAll = Effect.gen(function*() {
      const until = Date.now() + 90_000
      while (Date.now() < until && jobs.some((job) => job.id === undefined)) {
        if (fleet.live().length > 0) yield* Chaos.create(fleet, jobs.filter((job) => job.id === undefined), true, answered)
        else yield* realSleep(250)
      }
    })
    const driveBegan = Date.now()
    const creating = yield* Effect.forkChild(createAll)

    const killWhileWriting = (n: number) =>
      Effect.gen(function*() {
        const writing = yield* inFlight(double, n === 1 ? 20 : 2, 30_000)
        yield* fleet.kill(server)
        const killed = Date.now()
        yield* fleet.start(server)
        notes.push(
          `kill -9 ${n} at ${((killed - driveBegan) / 1000).toFixed(1)} s with ${writing} writes in flight on the provider; ` +
            `ready again ${Date.now() - killed} ms later`
        )
        Chaos.log(scenario, `kill -9 ${n} with ${writing} writes in flight on the provider, restarted`)
      })

    // The first kill in the first wave; the others spread over the second (the writes 45 to 120 s later).
    yield* killWhileWriting(1)
    for (let n = 2; n <= kills; n++) {
      yield* realSleep(n === 2 ? 30_000 : 15_000 + Math.floor(Math.random() * 10_000))
      yield* killWhileWriting(n)
    }
    yield* Fiber.join(creating)

    const ids = jobs.flatMap((job) => job.id === undefined ? [] : [job.id])
    let open = yield* openJobs(query, ids)
    while (open > 0 && Date.now() - driveBegan < budgetMs) {
      yield* realSleep(1000)
      open = yield* openJobs(query, ids)
    }
    const drivenMs = Date.now() - driveBegan
    // What the slow provider still works on lands before its record is read.
    const until = Date.now() + 5_000
    while (double.inFlight() > 0 && Date.now() < until) yield* realSleep(20)

    const counts = yield* Chaos.count(query, jobs, { url: "", secrets: [], received: new Map(), refused: 0 })
    const status = new Map((yield* query(Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      return yield* sql<{ id: string; status: string }>`SELECT id::text AS id, status FROM jobs WHERE id::text IN ${sql.in(ids)}`
    }))).map((row) => [row.id, row.status]))
    // On the provider's record: each job's write, how often it went out.
    let sentTwice = 0
    let completedNeverSent = 0
    let sentNotCompleted = 0
    for (const job of jobs) {
      const times = double.performed.filter(job.wentOut).length
      const ended = job.id === undefined ? undefined : status.get(job.id)
      if (times > 1) sentTwice++
      if (ended === "completed" && times === 0) completedNeverSent++
      if (ended !== "completed" && times > 0) sentNotCompleted++
    }
    // And every write it carried out twice, whatever job it was for: the same call to the same account.
    const keys = new Map<string, number>()
    for (const write of double.performed) {
      const key = JSON.stringify([write.route, write.accountId, write.path, Object.entries(write.fields).sort()])
      keys.set(key, (keys.get(key) ?? 0) + 1)
    }
    const repeated = [...keys.values()].filter((times) => times > 1).length
    const perCommand = yield* byCommand(query, ids)

    Chaos.printTable(title, [
      ...Chaos.jobColumns(counts, Math.max(counts.doubled, sentTwice, repeated)),
      ["provider writes", double.performed.length],
      ["sent twice", Math.max(sentTwice, repeated)],
      ["completed, not sent", completedNeverSent],
      ["sent, not completed", sentNotCompleted]
    ], [
      `failed by type: ${JSON.stringify(counts.failures)}; stuck by status: ${JSON.stringify(counts.stuckStatuses)}`,
      `by command: ${perCommand.map((row) => `${row.command} ${row.status}${row.error === null ? "" : ` ${row.error}`} ${row.n}`).join(", ")}`,
      `interrupted (the network could not tell): ${counts.interrupted}; every write here can tell (docs/networks.md)`,
      `job creations answered: ${JSON.stringify(Object.fromEntries(answers))}; a creation the killed process was handling answers 409 ` +
      `until its claim is taken over (2 minutes): never acknowledged, and never sent (counted in "sent, not completed")`,
      fleet.settled(),
      ...notes,
      `provider: ${double.calls.length} requests, ${double.violations.length} answers the SDK's validators refused`,
      `set-up ${(setUpMs / 1000).toFixed(0)} s, writes ${(drivenMs / 1000).toFixed(0)} s, scenario ${((Date.now() - began) / 1000).toFixed(0)} s`
    ])
    assert.deepStrictEqual({
      lost: counts.lost,
      stuck: counts.stuck,
      doubled: counts.doubled,
      sentTwice,
      repeated,
      completedNeverSent,
      sentNotCompleted,
      interrupted: counts.interrupted,
      violations: double.violations.length
    }, {
      lost: 0,
      stuck: 0,
      doubled: 0,
      sentTwice: 0,
      repeated: 0,
      completedNeverSent: 0,
      sentNotCompleted: 0,
      interrupted: 0,
      violations: 0
    })
  }))
