/**
 * `GET /dashboard/live`: the header's counts as server-sent events. htmx's
 * SSE extension swaps each message into the counts block. The counts are
 * looked at every few seconds and sent only when they change (a comment
 * keeps the connection open otherwise); and when anything happened in the
 * workspace (the counts, its newest event or its newest job changed), a
 * `workspace-changed` event, on which
 * the lists of approvals and jobs fetch themselves again (`live.js`). The
 * stream ends when the session does, and at once when the service begins
 * to stop.
 */
import { Effect, Stream } from "effect"
import { HttpServerResponse } from "effect/http"
import type { Accounts } from "../accounts/Accounts.ts"
import { Credentials } from "../auth/Credentials.ts"
import type { Approvals } from "../approvals/Approvals.ts"
import { Outbox } from "../events/Outbox.ts"
import { Jobs } from "../jobs/Jobs.ts"
import type { WebhookEndpoints } from "../webhooks/Endpoints.ts"
import * as Time from "../domain/Time.ts"
import { Draining } from "../http/Draining.ts"
import { attentionOf, countsHtml } from "./Attention.ts"
import { may, type Person } from "./Requests.ts"

/** How often the counts are looked at. */
export const liveInterval = "3 seconds"

/** One SSE message carrying `markup` (each line a `data:` line). */
export const sseMessage = (markup: string): string =>
  markup.split(/\r?\n/).map((line) => `data: ${line}`).join("\n") + "\n\n"

/** The named event telling the page something happened in the workspace (htmx dispatches it as a DOM event). */
export const changedEvent = "workspace-changed"

/** One named SSE event carrying `data` (one line). */
const sseEvent = (name: string, data: string): string => `event: ${name}\ndata: ${data}\n\n`

/** The counts stream of a signed-in person. */
export const liveCounts = (person: Person) =>
  Effect.gen(function*() {
    const credentials = yield* Credentials
    const draining = yield* Draining
    const context = yield* Effect.context<Accounts | Approvals | WebhookEndpoints>()
    const outbox = yield* Outbox
    const jobs = yield* Jobs
    const webhooks = may(person, "manageWebhooks")
    const look = Effect.all({
      counts: Effect.map(attentionOf(person.workspaceId, { webhooks }), (attention) => countsHtml(attention, { webhooks }).value),
      // Something happened (a job ended, a seat changed), or a job was asked for.
      seq: outbox.latestSeq(person.workspaceId),
      newestJob: Effect.match(jobs.list(person.workspaceId, { limit: 1 }), {
        onFailure: () => "",
        onSuccess: (page) => page.jobs[0]?.id ?? ""
      })
    })
    const first = yield* look
    const events = Stream.unfold(first, (last) =>
      Effect.gen(function*() {
        yield* Time.liveSleep(liveInterval)
        // Signed out, expired or removed: the stream ends and the browser stops asking.
        const still = yield* credentials.resolve(person.token)
        if (still === undefined) return undefined
        const now = yield* look
        const changed = now.counts !== last.counts || now.seq !== last.seq || now.newestJob !== last.newestJob
        const message = (now.counts === last.counts ? "" : sseMessage(now.counts)) +
          (changed ? sseEvent(changedEvent, String(now.seq)) : "")
        return [message === "" ? ": still here\n\n" : message, now] as const
      }))
    return HttpServerResponse.stream(
      Stream.concat(Stream.make(sseMessage(first.counts)), events).pipe(
        Stream.interruptWhen(draining.started),
        Stream.encodeText,
        Stream.provideContext(context)
      ),
      {
        contentType: "text/event-stream",
        headers: { "cache-control": "no-store", "x-accel-buffering": "no" }
      }
    )
  })
