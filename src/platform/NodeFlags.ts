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
 */

/** The `node` flags the service is started with. */
export const nodeFlags: ReadonlyArray<string> = ["--max-semi-space-size=16"]
