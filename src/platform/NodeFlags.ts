/**
 * The flags of the service's `node` command (`npm start` passes the same;
 * the benches start the service with these).
 *
 * V8 fixes the young generation's limit when the heap is set up, before any
 * module runs, so unlike `GcTuning.ts` this cannot be set from inside the
 * process. Left alone, V8 grew it to its largest (two 64 MB halves) while the
 * service started, and a grown young generation is not given back: about
 * 70-90 MB of the idle process's resident memory (`npm run bench:footprint`).
 * With 16 MB halves a request's garbage is still collected young (a few
 * hundred kB survive a collection), only more often.
 *
 * The old generation may grow to 1.5 times what the last full collection left
 * live before the next one (`--heap-growing-percent=50`). Left to choose, V8
 * let it grow to 1.5-3 times the live heap while a runner's accounts came and
 * went at a working-hours opening of 100,000 accounts: 300-500 MB of heap used,
 * half of it or less live, RSS peaking at 528-732 MB in two runs; with it,
 * 447-603 MB in the same run at the same throughput, 347-409 MB where the
 * runs without it were at 474-562 (`npm run bench:scale`, performance-log.md).
 */

/** The `node` flags the service is started with. */
export const nodeFlags: ReadonlyArray<string> = ["--max-semi-space-size=16", "--heap-growing-percent=50"]
