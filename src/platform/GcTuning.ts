/**
 * V8 settings for the service process, applied when this module is evaluated:
 * `main.ts` imports it first, before any other module has run.
 *
 * Allocation-site pretenuring is off. V8 moves an allocation site to old space
 * when most of its objects outlive a young collection. At start-up the
 * service's layers build long-lived objects through the same Effect and Node
 * code that later builds each request's short-lived ones, so those sites were
 * pretenured. Every request's objects then hung off old-space objects and were
 * promoted with them: about 6 MB promoted per young collection, 6-7 ms pauses
 * and parallel scavenging on the other core, about a fifth of the process's
 * CPU under load (`GET /v1/me`, measured with `--trace-gc-nvp`). Without
 * pretenuring about 0.2 MB survive a collection and a pause takes under 1 ms.
 * A minimal Effect server that loaded less code at start-up flipped between
 * the two states from run to run; the service was always in the bad one.
 *
 * The young generation's size cannot be set from here: see `NodeFlags.ts`.
 *
 * An app that embeds the core runs its own process and decides its own flags:
 * `node --no-allocation-site-pretenuring --max-semi-space-size=16 --heap-growing-percent=50`, or import
 * this module first and start Node with `NodeFlags.nodeFlags`.
 */
import { setFlagsFromString } from "node:v8"

setFlagsFromString("--no-allocation-site-pretenuring")
