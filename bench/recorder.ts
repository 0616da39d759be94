/**
 * A tracer for the job benchmarks that watches the service from outside:
 *
 * - when each job started on the network, in real time (the Executor opens an
 *   `Executor.run` span with the job's id as it starts a job);
 * - while counting is on, the round trips to the database: every SQL statement
 *   (its span carries `db.query.text`) and, for each transaction, its BEGIN and
 *   its COMMIT or ROLLBACK; those the sandbox network sends for its own tables
 *   are counted apart, since they stand for the network, not the service.
 */
import { Option, Tracer } from "effect"

/** The first instant (`performance.now()`) each job started. */
export const startedAt = new Map<string, number>()

export const statements = { counting: false, service: 0, network: 0, byText: new Map<string, number>() }

/** Starts counting statements afresh. */
export const countStatements = () => {
  statements.service = 0
  statements.network = 0
  statements.byText.clear()
  statements.counting = true
}

/** The statements counted, most frequent first, per job (on stderr). */
export const printStatements = (label: string, jobs: number) => {
  process.stderr.write(`  ${label}: statements per job\n`)
  for (const [text, count] of [...statements.byText].sort((a, b) => b[1] - a[1]).slice(0, 20)) {
    process.stderr.write(`    ${(count / jobs).toFixed(2).padStart(6)}  ${text}\n`)
  }
}

const onNetwork = (parent: Tracer.AnySpan | undefined): boolean => {
  for (let span = parent; span !== undefined; span = span._tag === "Span" ? Option.getOrUndefined(span.parent) : undefined) {
    if (span._tag === "Span" && span.name.startsWith("SandboxDriver.")) return true
  }
  return false
}

const tally = (text: string, count: number, parent: Option.Option<Tracer.AnySpan>) => {
  if (!statements.counting) return
  const network = onNetwork(Option.getOrUndefined(parent))
  if (network) statements.network += count
  else statements.service += count
  const key = network ? `(network) ${text}` : text
  statements.byText.set(key, (statements.byText.get(key) ?? 0) + count)
}

export const recorder = Tracer.make({
  span: (options) => {
    const span = new Tracer.NativeSpan(options)
    if (options.name === "sql.transaction") tally("BEGIN … COMMIT", 2, options.parent)
    if (options.kind !== "client" && options.name !== "Executor.run") return span
    const at = performance.now()
    const setAttribute = span.attribute.bind(span)
    span.attribute = (key, value) => {
      if (key === "db.query.text") tally(String(value).replace(/\s+/g, " ").slice(0, 90), 1, options.parent)
      if (key === "job.id" && !startedAt.has(String(value))) startedAt.set(String(value), at)
      setAttribute(key, value)
    }
    return span
  }
})
