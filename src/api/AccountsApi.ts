/**
 * Accounts (connected seats): connect, read, change settings, pause and resume,
 * reconnect, sign in natively, and the limits behind their budgets.
 */
import { Redacted, Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { Mode, OffHoursPolicy } from "../domain/Account.ts"
import { Limit, LimitUpdate, MAX_LIMIT_UPDATES, Tier } from "../domain/Limits.ts"
import { TimeZone, WorkingHours } from "../domain/WorkingHours.ts"
import { DateTimeString, Ok, OkOnly, Uuid } from "./Envelope.ts"
import { Conflict, NotAllowed, NotFound, Unprocessable } from "./Errors.ts"
import { allowedTo, Authentication } from "./Security.ts"
import { Text } from "../domain/Text.ts"
import { Account, AutoWithdrawDays, MinInviteQuality, Seats } from "../domain/AccountRecord.ts"
export { Account, Seats } from "../domain/AccountRecord.ts"

const Label = Text.check(Schema.isMaxLength(80)).annotate({
  description: "Usually the rep's name, at most 80 characters",
  examples: ["Ada Lovelace"]
})

/** `POST /v1/accounts/connect` body (all optional). */
export const ConnectAccount = Schema.Struct({
  label: Schema.optionalKey(Label),
  timezone: Schema.optionalKey(TimeZone.annotate({ description: "IANA zone, default UTC" })),
  workingHours: Schema.optionalKey(WorkingHours)
}).annotate({
  identifier: "ConnectAccount",
  examples: [{ label: "Ada Lovelace", timezone: "Europe/Berlin" }]
})

/** `PATCH /v1/accounts/{id}` body (every key optional). */
export const UpdateAccount = Schema.Struct({
  label: Schema.optionalKey(Label),
  timezone: Schema.optionalKey(TimeZone),
  workingHours: Schema.optionalKey(WorkingHours),
  offHoursPolicy: Schema.optionalKey(OffHoursPolicy),
  minInviteQuality: Schema.optionalKey(MinInviteQuality),
  autoWithdrawDays: Schema.optionalKey(AutoWithdrawDays),
  mode: Schema.optionalKey(Mode)
}).annotate({
  identifier: "UpdateAccount",
  examples: [{ mode: "autopilot", minInviteQuality: 40 }, { workingHours: { days: [1, 2, 3, 4], from: "08:30", to: "16:00", timezone: "America/New_York" } }]
})

/** The kinds of checkpoint a native sign-in can stop at. */
export const CheckpointType = Schema.Literals(["2fa", "otp", "captcha", "in_app_approval"])

/** The outcome of a native sign-in step. */
export const SignInOutcome = Ok({
  status: Schema.Literals(["connected", "checkpoint"]),
  checkpoint: Schema.NullOr(Schema.Struct({
    type: CheckpointType,
    message: Schema.String.annotate({ description: "What the person has to do" })
  })),
  account: Account
}).annotate({ identifier: "SignInOutcome" })

const id = { id: Uuid }

export class AccountsApi extends HttpApiGroup.make("accounts")
  .add(
    HttpApiEndpoint.get("list", "/v1/accounts", {
      success: Ok({ accounts: Schema.Array(Account), seats: Seats })
    }).annotateMerge(allowedTo("read")).annotateMerge(OpenApi.annotations({ summary: "List accounts and seats" })),
    HttpApiEndpoint.post("connect", "/v1/accounts/connect", {
      payload: ConnectAccount,
      success: Ok({
        account: Account,
        connectUrl: Schema.String.annotate({ format: "uri", description: "Where the person signs in" }),
        expiresAt: Schema.NullOr(DateTimeString).annotate({ description: "When the link stops working (1 hour)" })
      }).pipe(HttpApiSchema.status(201)),
      error: [NotAllowed, Unprocessable]
    }).annotateMerge(allowedTo("manageSeats")).annotateMerge(OpenApi.annotations({
      summary: "Connect an account",
      description:
        "Takes a seat and returns a sign-in link for the person. 403 `notAllowed` when every seat is in use. The account is `connecting` until the sign-in finishes."
    })),
    HttpApiEndpoint.get("get", "/v1/accounts/:id", { params: id, success: Ok({ account: Account }), error: NotFound }).annotateMerge(allowedTo("read"))
      .annotateMerge(OpenApi.annotations({ summary: "Get an account" })),
    HttpApiEndpoint.patch("update", "/v1/accounts/:id", {
      params: id,
      payload: UpdateAccount,
      success: Ok({ account: Account }),
      error: [NotFound, Unprocessable]
    }).annotateMerge(allowedTo("manageSeats")).annotateMerge(OpenApi.annotations({
      summary: "Change an account's settings",
      description:
        "Every key is optional. `timezone` moves the working hours to that zone; when both `timezone` and `workingHours.timezone` are given they must agree (422)."
    })),
    HttpApiEndpoint.delete("remove", "/v1/accounts/:id", { params: id, success: OkOnly, error: NotFound }).annotateMerge(allowedTo("manageSeats"))
      .annotateMerge(OpenApi.annotations({
        summary: "Disconnect an account",
        description: "Frees the seat and cancels the account's queued work. The account is gone afterwards (404)."
      })),
    HttpApiEndpoint.post("pause", "/v1/accounts/:id/pause", { params: id, success: OkOnly, error: [NotFound, Conflict] }).annotateMerge(allowedTo("manageSeats"))
      .annotateMerge(OpenApi.annotations({
        summary: "Pause an account",
        description:
          "All writes stop until a person resumes; emits `account.paused`. Pausing a paused account changes nothing. 409 while the account is connecting or needs reconnecting."
      })),
    HttpApiEndpoint.post("resume", "/v1/accounts/:id/resume", {
      params: id,
      success: Ok({ account: Account }),
      error: [NotFound, Conflict]
    }).annotateMerge(allowedTo("manageSeats")).annotateMerge(OpenApi.annotations({
      summary: "Resume an account",
      description:
        "From `paused` or `stopped`: back to work. From `restricted`: reads only for 7 days (`health.readsOnlyUntil`), then the warm-up restarts at half its level. Emits `account.resumed` with `wasRestricted`. 409 from any other status."
    })),
    HttpApiEndpoint.post("reconnect", "/v1/accounts/:id/reconnect", {
      params: id,
      success: Ok({ reconnectUrl: Schema.String.annotate({ format: "uri" }) }),
      error: [NotFound, Conflict]
    }).annotateMerge(allowedTo("manageSeats")).annotateMerge(OpenApi.annotations({
      summary: "Get a sign-in link to reconnect",
      description: "For an account that needs reconnecting (or is still connecting). 409 while it is connected."
    })),
    HttpApiEndpoint.post("nativeAuth", "/v1/accounts/:id/native-auth", {
      params: id,
      payload: Schema.Struct({
        username: Text.check(Schema.isMaxLength(320)).annotate({ examples: ["ada@example.com"] }),
        password: Schema.Redacted(Text.check(Schema.isMaxLength(200)).annotate({ examples: ["correct horse battery staple"] })).annotate({
          description: "Used once to sign in; never stored or logged"
        }),
        country: Schema.optionalKey(Text.check(
          Schema.isPattern(/^[A-Za-z]{2}$/u, { message: "must be a 2-letter ISO 3166-1 country code such as GB" })
        ).annotate({
          description: "ISO 3166-1 alpha-2 country code",
          examples: ["GB"]
        }))
      }).annotate({ identifier: "NativeAuth", examples: [{ username: "ada@example.com", password: Redacted.make("correct horse battery staple"), country: "GB" }] }),
      success: SignInOutcome,
      error: [NotFound, Conflict, Unprocessable]
    }).annotateMerge(allowedTo("manageSeats")).annotateMerge(OpenApi.annotations({
      summary: "Sign in with the network's username and password",
      description:
        "Usually answers with a checkpoint (2FA, OTP, CAPTCHA, approval in the network's app) to complete with `native-checkpoint`. The password is not stored."
    })),
    HttpApiEndpoint.post("nativeCheckpoint", "/v1/accounts/:id/native-checkpoint", {
      params: id,
      payload: Schema.Struct({
        code: Schema.optionalKey(Text.check(Schema.isMaxLength(64)).annotate({
          description: "The code (2FA, OTP) or the CAPTCHA answer; omit for in-app approval"
        }))
      }).annotate({ identifier: "NativeCheckpoint", examples: [{ code: "000000" }] }),
      success: SignInOutcome,
      error: [NotFound, Conflict, Unprocessable]
    }).annotateMerge(allowedTo("manageSeats")).annotateMerge(OpenApi.annotations({
      summary: "Complete a sign-in checkpoint",
      description: "422 when the code is wrong (try again); 409 when no checkpoint is pending."
    })),
    HttpApiEndpoint.get("limits", "/v1/accounts/:id/limits", {
      params: id,
      success: Ok({ tier: Tier, limits: Schema.Array(Limit) }),
      error: NotFound
    }).annotateMerge(allowedTo("read")).annotateMerge(OpenApi.annotations({
      summary: "Limits in force",
      description: "Every category and period with the service default, the tier ceiling and the limit in force."
    })),
    HttpApiEndpoint.put("setLimits", "/v1/accounts/:id/limits", {
      params: id,
      payload: Schema.Struct({
        limits: Schema.Array(LimitUpdate).check(Schema.isMinLength(1), Schema.isMaxLength(MAX_LIMIT_UPDATES))
      }).annotate({
        identifier: "SetLimits",
        examples: [{ limits: [{ category: "invites", period: "weekly", maxValue: 150 }] }]
      }),
      success: Ok({ account: Account }),
      error: [NotFound, Unprocessable]
    }).annotateMerge(allowedTo("manageSeats")).annotateMerge(OpenApi.annotations({
      summary: "Set limits",
      description:
        "Values above the tier ceiling are capped; lower values are always kept (`source: user`). Warm-up and health still scale the limit down. 422 for a category and period the service does not limit."
    }))
  )
  .middleware(Authentication)
  .annotateMerge(OpenApi.annotations({ title: "Accounts" }))
{}
