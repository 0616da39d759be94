/**
 * `/dashboard/security`: a person's own two-factor settings. Setting up shows
 * the secret as a QR code (SVG made on the server with `qrcode`) and as text;
 * a first code confirms it and shows ten recovery codes once. New recovery
 * codes and turning two-factor off need a current code. Changing your
 * password, your open sessions (sign out any one), and "Sign out everywhere"
 * live here too.
 */
import { Effect, Layer } from "effect"
import { HttpRouter } from "effect/http"
import QRCode from "qrcode"
import { OwnAccount } from "../team/OwnAccount.ts"
import { passwordLength } from "../team/Password.ts"
import { TwoFactorSettings } from "../team/TwoFactorSettings.ts"
import { framed, noticeFrom } from "./Frame.ts"
import { type Html, html, trusted } from "./Html.ts"
import { base, csrfInput, localTime } from "./Layout.ts"
import { type Person, seeOther, signedInAction, signedInPage } from "./Requests.ts"

export const securityRoutes = [
  { method: "GET", path: `${base}/security` },
  { method: "POST", path: `${base}/security/begin` },
  { method: "POST", path: `${base}/security/confirm` },
  { method: "POST", path: `${base}/security/recovery-codes` },
  { method: "POST", path: `${base}/security/disable` },
  { method: "POST", path: `${base}/security/password` },
  { method: "POST", path: `${base}/security/sessions/:id/end` }
] as const

const notices: Record<string, string> = {
  disabled: "Two-factor sign-in is off. Signing in now needs only your password.",
  password: "Your password is changed; your other sessions were signed out.",
  ended: "That session is signed out.",
  required: "Your workspace requires two-factor sign-in: set it up here to use the dashboard."
}

/** The `otpauth://` URI as a QR code an authenticator app scans. */
const qrSvg = (uri: string) =>
  Effect.promise(() => QRCode.toString(uri, { type: "svg", errorCorrectionLevel: "M", margin: 1 }))

const codeField = (id: string, label: string) =>
  html`<label for="${id}">${label}</label>
<input id="${id}" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" required>`

const recoveryList = (codes: ReadonlyArray<string>) =>
  html`<section class="card" aria-labelledby="codes-title"><h2 id="codes-title">Your recovery codes</h2>
<p><strong>Write these down or store them in your password manager now: they are shown only this once.</strong> Each one signs you in once if you lose your phone.</p>
<ul class="secret" id="recovery-codes">${codes.map((c) => html`<li>${c}</li>`)}</ul></section>`

const render = (person: Person, options: { readonly codes?: ReadonlyArray<string>; readonly error?: string | undefined; readonly notice?: string | undefined; readonly status?: number }) =>
  Effect.gen(function*() {
    const settings = yield* TwoFactorSettings
    const status = yield* settings.status(person.userId)
    const open = yield* (yield* OwnAccount).sessions(person.userId)
    let setup: Html | string = ""
    if (status.pending !== undefined) {
      const svg = yield* qrSvg(status.pending.uri)
      setup = html`<section class="card" aria-labelledby="setup-title"><h2 id="setup-title">Finish setting up</h2>
<ol><li>Scan this QR code with your authenticator app (or type the key below).</li><li>Type the 6-digit code the app shows.</li></ol>
<div class="qr" role="img" aria-label="QR code of your two-factor secret">${trusted(svg)}</div>
<p>Key: <span class="secret" id="totp-secret">${status.pending.secret}</span></p>
<form method="post" action="${base}/security/confirm">${csrfInput(person)}
${codeField("confirm-code", "Code from the app")}
<button type="submit">Turn on two-factor</button></form></section>`
    }
    const body = status.enabledAt === null
      ? html`<div class="card"><p>Two-factor sign-in is <strong>off</strong>: anyone with your password can sign in as you.</p>
<form method="post" action="${base}/security/begin">${csrfInput(person)}<button type="submit">${
        status.pending === undefined ? "Set up two-factor" : "Start again with a new key"
      }</button></form></div>${setup}`
      : html`<div class="card"><p>Two-factor sign-in is <strong>on</strong> since ${localTime(status.enabledAt)}. ${status.recoveryCodesLeft} recovery ${
        status.recoveryCodesLeft === 1 ? "code" : "codes"
      } left.</p></div>
<section class="card" aria-labelledby="new-codes"><h2 id="new-codes">New recovery codes</h2>
<p>Replaces the codes you have (used or not).</p>
<form method="post" action="${base}/security/recovery-codes">${csrfInput(person)}
${codeField("codes-code", "Current code from the app")}
<button type="submit">Make new recovery codes</button></form></section>
<section class="card" aria-labelledby="off"><h2 id="off">Turn two-factor off</h2>
<form method="post" action="${base}/security/disable">${csrfInput(person)}
${codeField("off-code", "Current code from the app")}
<button type="submit" class="danger">Turn off</button></form></section>`
    return yield* framed(person, {
      title: "Two-factor sign-in",
      section: "/security",
      error: options.error,
      notice: options.notice,
      status: options.status ?? 200,
      body: html`${options.codes === undefined ? "" : recoveryList(options.codes)}${body}
<section class="card" aria-labelledby="password-title"><h2 id="password-title">Change your password</h2>
<form method="post" action="${base}/security/password">${csrfInput(person)}
<label for="current-password">Current password</label><input id="current-password" name="current" type="password" autocomplete="current-password" required>
<label for="new-password">New password (${passwordLength.min} to ${passwordLength.max} characters)</label><input id="new-password" name="next" type="password" autocomplete="new-password" minlength="${passwordLength.min}" required>
<label for="again-password">New password again</label><input id="again-password" name="again" type="password" autocomplete="new-password" required>
<p class="muted">Your other sessions are signed out when it changes.</p>
<button type="submit">Change password</button></form></section>
<section class="card" aria-labelledby="everywhere"><h2 id="everywhere">Sessions</h2>
<div class="table-wrap"><table id="sessions"><thead><tr><th scope="col">Signed in</th><th scope="col">Ends</th><th scope="col"><span class="visually-hidden">Sign out</span></th></tr></thead><tbody>${
        open.map((session) =>
          html`<tr><td>${localTime(session.createdAt)}${session.id === person.sessionId ? html` <strong>(this one)</strong>` : ""}</td><td>${localTime(session.expiresAt)}</td><td>${
            session.id === person.sessionId
              ? ""
              : html`<form class="inline" method="post" action="${base}/security/sessions/${session.id}/end">${csrfInput(person)}<button type="submit" class="secondary">Sign out this session</button></form>`
          }</td></tr>`
        )
      }</tbody></table></div>
<p>Signed in on a computer you no longer use? End every session of yours, this one included.</p>
<form method="post" action="${base}/sign-out-everywhere">${csrfInput(person)}<button type="submit" class="danger">Sign out everywhere</button></form></section>`
    })
  })

const show = signedInPage((person, request) => render(person, { notice: noticeFrom(request.url, notices) }))

const begin = signedInAction((person) =>
  Effect.gen(function*() {
    yield* (yield* TwoFactorSettings).begin(person.userId)
    return seeOther(`${base}/security`)
  })
)

const withCode = (
  change: (settings: TwoFactorSettings["Service"], person: Person, code: string) => Effect.Effect<ReadonlyArray<string> | void, { readonly message: string }>
) =>
  signedInAction((person, form) =>
    Effect.gen(function*() {
      const settings = yield* TwoFactorSettings
      const outcome = yield* Effect.result(change(settings, person, form.get("code") ?? ""))
      if (outcome._tag === "Failure") return yield* render(person, { error: outcome.failure.message, status: 422 })
      if (outcome.success === undefined) return seeOther(`${base}/security?notice=disabled`)
      return yield* render(person, { codes: outcome.success, notice: "Done. Keep the recovery codes below somewhere safe." })
    })
  )

const changePassword = signedInAction((person, form) =>
  Effect.gen(function*() {
    const next = form.get("next") ?? ""
    if (next !== (form.get("again") ?? "")) return yield* render(person, { error: "The two new passwords differ: type the same one twice.", status: 400 })
    const changed = yield* Effect.result(
      (yield* OwnAccount).changePassword(person.userId, { current: form.get("current") ?? "", next, keep: person.sessionId })
    )
    if (changed._tag === "Failure") return yield* render(person, { error: changed.failure.message, status: 422 })
    return seeOther(`${base}/security?notice=password`)
  })
)

const endSession = signedInAction((person) =>
  Effect.gen(function*() {
    const params = yield* HttpRouter.params
    const ended = yield* (yield* OwnAccount).endSession(person.userId, params["id"] ?? "")
    if (!ended) return yield* render(person, { error: "That session is already over, or not yours.", status: 404 })
    return seeOther(`${base}/security?notice=ended`)
  })
)

export const layer = Layer.mergeAll(
  HttpRouter.add("POST", `${base}/security/password`, changePassword),
  HttpRouter.add("POST", `${base}/security/sessions/:id/end`, endSession),
  HttpRouter.add("GET", `${base}/security`, show),
  HttpRouter.add("POST", `${base}/security/begin`, begin),
  HttpRouter.add("POST", `${base}/security/confirm`, withCode((settings, person, code) => settings.confirm(person.userId, code))),
  HttpRouter.add("POST", `${base}/security/recovery-codes`, withCode((settings, person, code) => settings.newRecoveryCodes(person.userId, code))),
  HttpRouter.add(
    "POST",
    `${base}/security/disable`,
    withCode((settings, person, code) =>
      Effect.flatMap(settings.requiredIn(person.workspaceId), (required) =>
        required
          ? Effect.fail({ message: "Your workspace requires two-factor sign-in, so it cannot be turned off. An owner can stop requiring it on the Team page." })
          : settings.disable(person.userId, code)))
  )
)
