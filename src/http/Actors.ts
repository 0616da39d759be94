/**
 * Who did something, in words: the `user:<id>` and `key:<id>` that approvals
 * and the activity log record, as the person's name or the key's name.
 */
import { Effect } from "effect"
import { ApiKeys } from "../keys/ApiKeys.ts"
import { Team } from "../team/Team.ts"

/** Names the actors of one workspace (one read of its people and keys for a whole page). */
export const actorNamer = (workspaceId: string) =>
  Effect.gen(function*() {
    const people = yield* (yield* Team).members(workspaceId)
    const keys = yield* (yield* ApiKeys).list(workspaceId)
    const names = new Map<string, string>([
      ...people.map((p): [string, string] => [`user:${p.id}`, p.name === "" ? p.email : p.name]),
      ...keys.map((k): [string, string] => [`key:${k.id}`, `API key "${k.name}"`])
    ])
    return (actor: string | null): string => {
      if (actor === null) return "—"
      if (actor === "expiry") return "nobody (it expired)"
      if (actor === "cancellation") return "its job was cancelled"
      if (actor === "operator") return "the operator (command line)"
      return names.get(actor) ?? (actor.startsWith("user:") ? "a former teammate" : "a deleted key")
    }
  })
