/**
 * `GET/POST /v1/sandbox/clock`: reads and moves the service's test clock
 * (`platform/ServiceClock.ts`), only with the sandbox driver. The contract is
 * `src/api/SandboxClockApi.ts`.
 */
import { Effect, Layer } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../../api/Api.ts"
import { Conflict, Unprocessable } from "../../api/Errors.ts"
import { instantMillis } from "../../api/SandboxClockApi.ts"
import * as Time from "../../domain/Time.ts"
import { CurrentPrincipal } from "../../domain/Principal.ts"
import { NetworkDriver } from "../../network/NetworkDriver.ts"
import { ServiceClock } from "../../platform/ServiceClock.ts"
import { sandboxOnly } from "./SandboxOnly.ts"
import * as HandlerGroup from "../../http/HandlerGroup.ts"

const systemClock = new Conflict({
  error: {
    message: "The service runs on the system clock, which cannot be moved.",
    next: "Start the service with OUTREACH_CLOCK=test to use the sandbox's test clock."
  }
})

export const SandboxClockHandlers = Layer.unwrap(Effect.gen(function*() {
  const clock = yield* ServiceClock
  const network = yield* NetworkDriver
  const sandbox = Effect.flatMap(CurrentPrincipal, ({ workspaceId }) => sandboxOnly(network, workspaceId))
  const state = (ms: number) => ({ ok: true as const, now: Time.toIso(ms), mode: clock.mode })
  return HandlerGroup.onMiddlewares(HttpApiBuilder.group(Api, "sandboxClock", (handlers) =>
    handlers.handleAll({
      read: () => Effect.andThen(sandbox, Effect.map(clock.now, state)),
      move: ({ payload }) => {
        // The payload's schema guarantees exactly one field, and a valid `to`.
        const move = payload.advanceSeconds !== undefined
          ? clock.advance(payload.advanceSeconds * 1000)
          : clock.setTo(instantMillis(payload.to ?? "") ?? Number.NaN)
        return Effect.andThen(sandbox, move).pipe(
          Effect.map(state),
          Effect.catchTags({
            ClockNotAdjustable: () => Effect.fail(systemClock),
            ClockWouldGoBack: (error) =>
              Effect.fail(
                new Unprocessable({
                  error: {
                    message: error.requested < error.now
                      ? `\`to\` (${payload.to}) is before the clock's time (${Time.toIso(error.now)}); the clock only moves forward.`
                      : error.message,
                    next: "Send a `to` at or after `now` (GET /v1/sandbox/clock), or use advanceSeconds."
                  }
                })
              )
          })
        )
      }
    })
  ))
}))
