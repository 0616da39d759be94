/**
 * Spans opened for every job (its start, claim, run, network call and ending) capture no stack
 * trace: Effect builds an `Error` for each span unless told not to, about 4% of a job's CPU in a
 * burst (`npm run bench:queue`, docs/performance.md). The spans, their names, attributes and
 * parents are the same; a failure's cause only lacks the source line of these spans.
 */
import type { Tracer } from "effect"

/** The trace options of a span opened once per job (`Effect.withSpan`'s third argument, `withParentSpan`'s). */
export const perJob: Tracer.TraceOptions = { captureStackTrace: false }
