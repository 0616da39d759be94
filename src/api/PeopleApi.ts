/**
 * People: the workspace's shared history with one person, across all its
 * accounts. `GET /v1/people` searches the people the accounts have dealt with;
 * `GET /v1/people/{id}` shows one with a timeline of who did what and when.
 */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { ADDRESS_MAX } from "../domain/CommandInputs.ts"
import { Ok, Uuid } from "./Envelope.ts"
import { NotFound, Unprocessable } from "./Errors.ts"
import { Cursor, ListLimit } from "./JobsApi.ts"
import { allowedTo, Authentication } from "./Security.ts"
import { Text } from "../domain/Text.ts"
import { COLD_MESSAGE_HOLD_DAYS, personExample, PersonRecord, TIMELINE_MAX, TimelineEntry, timelineExample } from "../domain/PersonRecord.ts"
export { COLD_MESSAGE_HOLD_DAYS, PersonRecord, TimelineEntry } from "../domain/PersonRecord.ts"

/** `GET /v1/people` filters. */
/** The filters of `GET /v1/people` (and of the assistants' `find_people`). */
export const searchQuery = {
  q: Schema.optionalKey(
    Text.check(Schema.isMinLength(1), Schema.isMaxLength(200)).annotate({
      description: "Words in the person's name, headline, company or profile address (case-insensitive)",
      examples: ["garcía"]
    })
  ),
  company: Schema.optionalKey(
    Text.check(Schema.isMinLength(1), Schema.isMaxLength(200)).annotate({
      description: "The current employer's name contains this (case-insensitive)",
      examples: ["Harborview"]
    })
  ),
  profile: Schema.optionalKey(
    Text.check(Schema.isMinLength(1), Schema.isMaxLength(ADDRESS_MAX)).annotate({
      description:
        "Exactly this person, in any form a command takes (profile address with or without `https://`, Sales Navigator lead address, provider id, slug); an address that names no person is 400",
      examples: ["https://www.linkedin.com/in/maria-garcia-3a9f02c1b/"]
    })
  ),
  cursor: Schema.optionalKey(Cursor),
  limit: ListLimit
}

const PeoplePage = Ok({
  people: Schema.Array(PersonRecord).annotate({ description: "Latest activity first" }),
  nextCursor: Schema.NullOr(Schema.String).annotate({ description: "Pass as `cursor` for the next page; null on the last page" })
}).annotate({
  examples: [{
    ok: true,
    people: [personExample],
    nextCursor: "cGVyc29uOjIwMjYtMTEtMjJUMDg6MTI6MDAuMDAwWjozYzlkMmUxZi04YTdiLTRjNmQtOWUwZi0xYTJiM2M0ZDVlNmY"
  }]
})

const PersonWithTimeline = Ok({
  person: PersonRecord,
  timeline: Schema.Array(TimelineEntry).annotate({ description: `Newest first, up to ${TIMELINE_MAX} entries` })
})

export class PeopleApi extends HttpApiGroup.make("people")
  .add(
    HttpApiEndpoint.get("list", "/v1/people", {
      query: searchQuery,
      success: PeoplePage,
      error: Unprocessable
    }).annotateMerge(allowedTo("read")).annotateMerge(OpenApi.annotations({
      summary: "Search people",
      description: [
        "The people the workspace's accounts have dealt with: invited, messaged, heard from, or ran a job about. One record per person per workspace,",
        "whatever address was used: the network's identifier (`providerId`) decides who is who. Filters combine (all must match).",
        "",
        "Latest activity first, paged with `cursor` and `limit`. A person whose activity changes while you page moves to the front,",
        "so a long walk may miss them; start again from the first page to see the latest. 422 `unprocessable`: a cursor this API did not give out,",
        "or a `profile` that names no person."
      ].join("\n")
    })),
    HttpApiEndpoint.get("get", "/v1/people/:id", {
      params: { id: Uuid.annotate({ description: "The person's id" }) },
      success: PersonWithTimeline.annotate({
        examples: [{ ok: true, person: personExample, timeline: timelineExample }]
      }),
      error: NotFound
    }).annotateMerge(allowedTo("read")).annotateMerge(OpenApi.annotations({
      summary: "A person and their timeline",
      description: [
        "The person, how each account stands with them, and the timeline: the jobs about them (from the moment each ran), the invitations",
        "the accounts sent and their acceptance, the messages both ways and the triage of each reply, with the account that did it and when.",
        "",
        "Writes consult this history: two seats of the workspace never invite or cold-message the same person at once. A `connect`, or a",
        "`send_message` to someone who is not a connection of the account and has not written to it, fails with `guardrail` naming the",
        `other account while that account has an invitation to the person pending, sent them a cold message (InMail) in the last ${COLD_MESSAGE_HOLD_DAYS} days`,
        "that they have not answered, or is sending them an invitation or message at this moment. 404 `notFound`: no such person in this workspace."
      ].join("\n")
    }))
  )
  .middleware(Authentication)
  .annotateMerge(OpenApi.annotations({ title: "People" }))
{}
