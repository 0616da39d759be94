/**
 * The import rule of `src/`, written once: its parts in layers, lowest first.
 * A part is a top folder of `src/`, or `(wiring)` for the files directly in
 * `src/` (App.ts, Server.ts, main.ts, cli.ts, mcp-stdio.ts, index.ts). A part
 * may import the parts of lower layers only: never its own layer's, never a
 * higher one's. So no two parts import each other, and there is no cycle.
 *
 * `test/architecture/Imports.test.ts` checks the sources against it, and
 * `npm run docs` draws it into docs/architecture.md (a test fails when that
 * drawing is stale). A new top folder must be placed here before its first
 * import is accepted.
 */

export interface Layer {
  /** What the layer holds, in a few words (the diagram shows it). */
  readonly name: string
  readonly parts: ReadonlyArray<string>
}

export const layers: ReadonlyArray<Layer> = [
  { name: "domain: ids, models, statuses, pure rules, the vocabulary all share", parts: ["domain"] },
  { name: "infrastructure: config, SQL, migrations, clock, tracing; the request-rate rule", parts: ["platform", "ratelimit"] },
  { name: "the network driver port, reply triage, the outbox, the activity log, the Idempotency-Key store", parts: ["triage", "network", "events", "activity", "idempotency"] },
  { name: "services: credentials, accounts and the invitations they sent", parts: ["auth", "accounts"] },
  // people/ reads the accounts (the seats in a person's timeline, the other seat holding a person); accounts/ never reads people/.
  { name: "services: people and what reached them", parts: ["people"] },
  { name: "services: API keys, jobs and the Governor, people's and assistants' sign-in", parts: ["keys", "jobs", "team", "oauth"] },
  // approvals/ decides a job's approval (the job moves, the Governor wakes); jobs/ writes a job's own approval
  // through its port (jobs/JobApprovals.ts), which the approvals' owner answers.
  { name: "services built on jobs and keys: approvals of writes, workspaces, the inbox, workflows, webhooks", parts: ["approvals", "workspaces", "inbox", "workflows", "webhooks"] },
  { name: "intake: starting jobs, workflows and automations under an Idempotency-Key, for REST and assistants alike", parts: ["intake"] },
  // The contract sits above the services: they speak their own language (domain/Failures.ts and the
  // records in domain/), and the edge turns it into the contract's (http/ServiceErrors.ts).
  { name: "the HTTP contract: routes, bodies and errors with their status", parts: ["api"] },
  { name: "adapters: REST handlers, the typed client, operator commands", parts: ["http", "client", "operator"] },
  { name: "adapters that reuse the REST gate", parts: ["mcp", "dashboard"] },
  { name: "the simulated network, its endpoints and sign-in page", parts: ["sandbox"] },
  { name: "wiring: App.ts, Server.ts, main.ts, cli.ts, mcp-stdio.ts, index.ts", parts: ["(wiring)"] }
]

/** The layer of a part (its index in `layers`), or undefined for a part the rule does not place. */
export const layerOf = (part: string): number | undefined => {
  const index = layers.findIndex((layer) => layer.parts.includes(part))
  return index === -1 ? undefined : index
}

/** Whether `from` may import `to`: `to` is in a strictly lower layer. */
export const mayImport = (from: string, to: string): boolean => {
  const a = layerOf(from)
  const b = layerOf(to)
  return a !== undefined && b !== undefined && b < a
}

/** The rule as a Mermaid flowchart, top layer first: what docs/architecture.md shows. */
export const mermaid = (): string => {
  const id = (part: string) => part === "(wiring)" ? "wiring" : part.replace(/[^a-z]/g, "_")
  const label = (part: string) => part === "(wiring)" ? "src/*.ts" : `${part}/`
  const lines = ["```mermaid", "flowchart TD"]
  const top = layers.length - 1
  for (let i = top; i >= 0; i--) {
    const layer = layers[i]
    lines.push(`  subgraph L${i} ["${i}. ${layer.name}"]`)
    for (const part of layer.parts) lines.push(`    ${id(part)}["${label(part)}"]`)
    lines.push("  end")
  }
  for (let i = top; i > 0; i--) lines.push(`  L${i} --> L${i - 1}`)
  lines.push("```")
  return lines.join("\n")
}
