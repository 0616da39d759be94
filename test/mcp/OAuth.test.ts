/**
 * Sign-in for assistants: the official MCP SDK's OAuth client
 * (`StreamableHTTPClientTransport` with an `authProvider`) against the real
 * service. The test plays the browser (signs a person in through the
 * dashboard's forms with a TOTP code, allows the assistant on the consent
 * page, reads the code off the redirect); the SDK does the rest: discovery,
 * registration, PKCE, the token exchange, refresh. Bad inputs answer RFC
 * 6749's `error` and `error_description`. Once in a real browser (chromium):
 * a browser holds a form's redirect to the page's CSP `form-action`, which a
 * fetch does not.
 */
import { createHash } from "node:crypto"
import { createServer } from "node:http"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { type OAuthClientProvider, UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import type { OAuthClientInformationMixed, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js"
import { afterAll, assert, layer } from "@effect/vitest"
import { Clock, Effect } from "effect"
import { HttpServer } from "effect/http"
import { TestClock } from "effect/testing"
import { Credentials } from "../../src/auth/Credentials.ts"
import { Team } from "../../src/team/Team.ts"
import { totpCodeAt } from "../../src/team/TwoFactor.ts"
import { TwoFactorSettings } from "../../src/team/TwoFactorSettings.ts"
import { closeAll, open } from "../support/Browser.ts"
import { strangers, workspaceWithAccount } from "../jobs/support.ts"
import { call, layer as serverLayer } from "../support/TestServer.ts"

const password = "correct horse battery staple"
const redirectUrl = "http://127.0.0.1:33418/callback"

const baseUrl = Effect.gen(function*() {
  const address = (yield* HttpServer.HttpServer).address
  if (address._tag === "UnixPathAddress") return yield* Effect.die(new Error("no TCP address"))
  return `http://127.0.0.1:${address.port}`
})

/** What an assistant app keeps between runs, in memory; it records where it would send the person. */
class MemoryProvider implements OAuthClientProvider {
  client: OAuthClientInformationMixed | undefined
  saved: OAuthTokens | undefined
  verifier = ""
  authorizationUrl: URL | undefined
  get redirectUrl() {
    return redirectUrl
  }
  get clientMetadata() {
    return { client_name: "Claude (test)", redirect_uris: [redirectUrl], token_endpoint_auth_method: "none" }
  }
  clientInformation() {
    return this.client
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.client = info
  }
  tokens() {
    return this.saved
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier
  }
  codeVerifier() {
    return this.verifier
  }
}

/** A browser's cookies, by name (the paths are all under the service's own origin). */
class Browser {
  readonly cookies = new Map<string, string>()
  async get(url: string) {
    return this.send(url, { method: "GET" })
  }
  async post(url: string, fields: Record<string, string>) {
    return this.send(url, {
      method: "POST",
      body: new URLSearchParams(fields).toString(),
      headers: { "content-type": "application/x-www-form-urlencoded" }
    })
  }
  private async send(url: string, init: { method: string; body?: string; headers?: Record<string, string> }) {
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ")
    const response = await fetch(url, { ...init, redirect: "manual", headers: { ...init.headers, cookie } })
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(";")
      const at = pair.indexOf("=")
      const value = pair.slice(at + 1)
      if (value === "") this.cookies.delete(pair.slice(0, at))
      else this.cookies.set(pair.slice(0, at), value)
    }
    return {
      status: response.status,
      location: response.headers.get("location") ?? "",
      csp: response.headers.get("content-security-policy") ?? "",
      text: await response.text()
    }
  }
}

const unescape = (text: string) =>
  text.replace(/&quot;/g, "\"").replace(/&#39;/g, "'").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&")

/** A form's hidden fields, as the browser would send them back. */
const hiddenFields = (page: string): Record<string, string> =>
  Object.fromEntries([...page.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [m[1], unescape(m[2])]))

/**
 * The person's part, in a browser: the authorization URL leads to sign-in (password, then a TOTP
 * code), then to the consent page, where they allow; the answer is where the service redirects.
 */
const consentInBrowser = (base: string, authorizationUrl: string, person: { readonly email: string; readonly secret: string }, decision = "allow") =>
  Effect.gen(function*() {
    // A TOTP code works once: each sign-in is in a time step of its own.
    yield* TestClock.adjust("30 seconds")
    const code = yield* Effect.map(Clock.currentTimeMillis, (now) => totpCodeAt(person.secret, now))
    return yield* Effect.promise(async () => {
      const browser = new Browser()
      const toConsent = await browser.get(authorizationUrl)
      assert.strictEqual(toConsent.status, 303, toConsent.text)
      const toSignIn = await browser.get(base + toConsent.location)
      assert.strictEqual(toSignIn.status, 303)
      assert.match(toSignIn.location, /^\/dashboard\/sign-in\?next=/)
      const signIn = await browser.get(base + toSignIn.location)
      const toCode = await browser.post(`${base}/dashboard/sign-in`, { ...hiddenFields(signIn.text), email: person.email, password })
      assert.strictEqual(toCode.status, 303, toCode.text)
      const codePage = await browser.get(base + toCode.location)
      const signedIn = await browser.post(`${base}/dashboard/sign-in/code`, { ...hiddenFields(codePage.text), code })
      assert.strictEqual(signedIn.status, 303, signedIn.text)
      assert.match(signedIn.location, /^\/dashboard\/oauth\/authorize\?/)
      const consent = await browser.get(base + signedIn.location)
      assert.strictEqual(consent.status, 200, consent.text)
      // A browser holds the form's redirect to form-action: the assistant's origin is allowed on this page.
      assert.include(consent.csp, `form-action 'self' ${new URL(redirectUrl).origin};`)
      const decided = await browser.post(`${base}/dashboard/oauth/authorize`, { ...hiddenFields(consent.text), decision })
      assert.strictEqual(decided.status, 303, decided.text)
      return { consentPage: consent.text, location: new URL(decided.location), browser }
    })
  })

/** A workspace with a seat, an owner, and a member who signs in with a password and TOTP. */
const setUp = Effect.gen(function*() {
  const { token, workspaceId, accountId } = yield* workspaceWithAccount({ mode: "approve" })
  const team = yield* Team
  const suffix = crypto.randomUUID().slice(0, 8)
  const ownerEmail = `owner-${suffix}@acme.test`
  const { userId: ownerId } = yield* team.createOwner({ workspaceId, email: ownerEmail, name: "Olivia Owner", password })
  const email = `member-${suffix}@acme.test`
  const { link } = yield* team.invite(
    { id: ownerId, email: ownerEmail, name: "Olivia Owner", role: "owner", workspaceId },
    { email, role: "member", baseUrl: "http://localhost" }
  ).pipe(Effect.orDie)
  yield* team.accept(link.split("/").at(-1) ?? "", { name: "Milo Member", password }).pipe(Effect.orDie)
  const member = (yield* team.members(workspaceId)).find((m) => m.email === email)
  assert.isDefined(member)
  const settings = yield* TwoFactorSettings
  const { secret } = yield* settings.begin(member.id)
  yield* settings.confirm(member.id, totpCodeAt(secret, yield* Clock.currentTimeMillis)).pipe(Effect.orDie)
  const owner = { id: ownerId, email: ownerEmail, name: "Olivia Owner", role: "owner" as const, workspaceId }
  return { token, workspaceId, accountId, email, secret, memberId: member.id, owner, base: yield* baseUrl }
})

/** A GET that does not follow a redirect: the authorization endpoint's answer itself. */
const noFollow = (base: string, path: string) =>
  Effect.promise(async () => {
    const response = await fetch(base + path, { redirect: "manual" })
    const text = await response.text()
    return {
      status: response.status,
      headers: { location: response.headers.get("location") ?? "" },
      body: (response.headers.get("content-type") ?? "").startsWith("application/json") ? JSON.parse(text) : text
    }
  })

/** An assistant app connecting to `/mcp`; the first attempt sends the person to authorize. */
const connect = (base: string, provider: MemoryProvider) =>
  Effect.promise(async () => {
    const client = new Client({ name: "oauth-test-assistant", version: "1.0.0" })
    const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { authProvider: provider })
    const outcome = await client.connect(transport).then(() => "connected", (error: unknown) => error)
    return { client, transport, outcome }
  })

const toolJson = (result: Record<string, unknown>) => {
  // Untyped JSON as received: read like an assistant would.
  const content: any = result["content"]
  return { isError: result["isError"] === true, body: JSON.parse(String(content[0]?.text)) }
}

layer(serverLayer())("sign-in for assistants", (it) => {
  afterAll(closeAll)
  it.effect("publishes the metadata the MCP authorization specification asks for, and /mcp without credentials points to it", () =>
    Effect.gen(function*() {
      const base = yield* baseUrl
      const resource = yield* call("GET", "/.well-known/oauth-protected-resource/mcp")
      assert.strictEqual(resource.status, 200)
      assert.deepStrictEqual(resource.body.authorization_servers, [base])
      assert.strictEqual(resource.body.resource, `${base}/mcp`)
      const server = yield* call("GET", "/.well-known/oauth-authorization-server")
      assert.strictEqual(server.body.issuer, base)
      assert.deepStrictEqual(server.body.code_challenge_methods_supported, ["S256"])
      assert.strictEqual(server.body.registration_endpoint, `${base}/oauth/register`)
      const bare = yield* call("POST", "/mcp", { body: { jsonrpc: "2.0", id: 1, method: "ping" } })
      assert.strictEqual(bare.status, 401)
      assert.include(bare.headers["www-authenticate"], `resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`)
      const wrong = yield* call("POST", "/mcp", { token: "oat_nothing", body: { jsonrpc: "2.0", id: 1, method: "ping" } })
      assert.include(wrong.headers["www-authenticate"], "error=\"invalid_token\"")
    }))

  it.effect("a member's assistant signs in with two-factor and consent, acts as the member in the workspace only, and stops once revoked", () =>
    Effect.gen(function*() {
      const { base, email, secret, memberId, workspaceId, accountId } = yield* setUp
      // Another workspace's account and job: the assistant must not see them.
      const other = yield* workspaceWithAccount()
      const [stranger] = strangers(other.accountId, 1, "oauth")
      const foreign = yield* call("POST", "/v1/jobs", {
        token: other.token,
        body: { account: other.accountId, command: "connect", input: { person: stranger } }
      })
      assert.strictEqual(foreign.status, 202, JSON.stringify(foreign.body))

      const provider = new MemoryProvider()
      const first = yield* connect(base, provider)
      assert.instanceOf(first.outcome, UnauthorizedError)
      assert.isDefined(provider.authorizationUrl)
      assert.strictEqual(provider.authorizationUrl.searchParams.get("code_challenge_method"), "S256")
      const { location, consentPage, browser } = yield* consentInBrowser(base, provider.authorizationUrl.toString(), { email, secret })
      assert.include(consentPage, "Claude (test)")
      assert.include(consentPage, "Test workspace")
      assert.include(consentPage, "(member)")
      assert.strictEqual(location.origin + location.pathname, redirectUrl)
      assert.strictEqual(location.searchParams.get("state"), provider.authorizationUrl.searchParams.get("state"))
      const code = location.searchParams.get("code")
      assert.isString(code)
      yield* Effect.promise(() => first.transport.finishAuth(code ?? ""))

      const { client, outcome } = yield* connect(base, provider)
      assert.strictEqual(outcome, "connected")
      const { tools } = yield* Effect.promise(() => client.listTools())
      assert.isAbove(tools.length, 10)
      // The token's principal is the member, with the member's role, in the member's workspace.
      const accessToken = provider.saved?.access_token ?? ""
      assert.match(accessToken, /^oat_/)
      const principal = yield* (yield* Credentials).resolve(accessToken)
      assert.strictEqual(principal?.kind, "assistant")
      if (principal?.kind !== "assistant") return
      assert.strictEqual(principal.user.id, memberId)
      assert.strictEqual(principal.user.role, "member")
      assert.strictEqual(principal.workspaceId, workspaceId)
      assert.strictEqual(principal.clientName, "Claude (test)")
      // A read works, scoped to the workspace.
      const accounts = toolJson(yield* Effect.promise(() => client.callTool({ name: "list_accounts", arguments: {} })))
      assert.isFalse(accounts.isError)
      assert.deepStrictEqual(accounts.body.accounts.map((a: { id: string }) => a.id), [accountId])
      const elsewhere = toolJson(yield* Effect.promise(() => client.callTool({ name: "get_job", arguments: { jobId: foreign.body.job.id } })))
      assert.isTrue(elsewhere.isError)
      assert.strictEqual(elsewhere.body.error.type, "notFound")
      // The token is for /mcp: the REST API refuses it.
      const rest = yield* call("GET", "/v1/accounts", { token: accessToken })
      assert.strictEqual(rest.status, 401)
      assert.include(rest.body.error.message, "/mcp only")

      // The member revokes the assistant on the dashboard; its next call fails with 401.
      const revoked = yield* Effect.promise(async () => {
        const page = await browser.get(`${base}/dashboard/assistants`)
        assert.include(page.text, "Claude (test)")
        const action = /action="(\/dashboard\/assistants\/[^"]+\/revoke)"/.exec(page.text)?.[1] ?? ""
        const csrf = /name="_csrf" value="([^"]+)"/.exec(page.text)?.[1] ?? ""
        return browser.post(base + action, { _csrf: csrf })
      })
      assert.strictEqual(revoked.status, 303)
      const raw = yield* call("POST", "/mcp", { token: accessToken, body: { jsonrpc: "2.0", id: 9, method: "ping" } })
      assert.strictEqual(raw.status, 401)
      const after = yield* Effect.promise(() =>
        client.callTool({ name: "list_accounts", arguments: {} }).then(() => "answered", (error: unknown) => error)
      )
      assert.instanceOf(after, Error)
      // The SDK tried its refresh token: the grant is revoked, so it is sent back to authorize.
      // Untyped JSON as received.
      const refreshed: any = yield* Effect.promise(() =>
        fetch(`${base}/oauth/token`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({
            grant_type: "refresh_token",
            refresh_token: provider.saved?.refresh_token ?? "",
            client_id: provider.client?.client_id ?? ""
          }).toString()
        }).then((response) => response.json())
      )
      assert.strictEqual(refreshed.error, "invalid_grant")
      yield* Effect.promise(() => client.close())
    }), { timeout: 60_000 })

  it.effect("bad inputs answer RFC 6749 errors: unknown client, wrong redirect_uri, missing or plain PKCE, reused code, expired code and token, reused refresh token", () =>
    Effect.gen(function*() {
      const { base, email, secret, owner, memberId } = yield* setUp
      const registered = yield* call("POST", "/oauth/register", {
        body: { client_name: "Scripted assistant", redirect_uris: [redirectUrl] }
      })
      assert.strictEqual(registered.status, 201, JSON.stringify(registered.body))
      const clientId: string = registered.body.client_id
      const badRedirect = yield* call("POST", "/oauth/register", { body: { redirect_uris: ["http://evil.example/cb"] } })
      assert.strictEqual(badRedirect.status, 400)
      assert.strictEqual(badRedirect.body.error, "invalid_redirect_uri")
      const noUris = yield* call("POST", "/oauth/register", { body: { client_name: "x" } })
      assert.strictEqual(noUris.body.error, "invalid_client_metadata")
      assert.include(noUris.body.error_description, "redirect_uris")

      const verifier = "a-verifier-of-enough-length-for-pkce-0123456789"
      const challenge = createHash("sha256").update(verifier).digest("base64url")
      const authorizeUrl = (params: Record<string, string>) =>
        `/oauth/authorize?${new URLSearchParams({
          response_type: "code",
          client_id: clientId,
          redirect_uri: redirectUrl,
          code_challenge: challenge,
          code_challenge_method: "S256",
          state: "s1",
          ...params
        })}`
      const unknown = yield* noFollow(base, authorizeUrl({ client_id: "mcp_nobody" }))
      assert.strictEqual(unknown.status, 400)
      assert.strictEqual(unknown.body.error, "invalid_client")
      const wrongRedirect = yield* noFollow(base, authorizeUrl({ redirect_uri: "http://127.0.0.1:1/other" }))
      assert.strictEqual(wrongRedirect.status, 400)
      assert.strictEqual(wrongRedirect.body.error, "invalid_request")
      assert.include(wrongRedirect.body.error_description, "redirect_uri")
      const sentBack = (reply: { readonly status: number; readonly headers: Readonly<Record<string, string>> }) => {
        assert.strictEqual(reply.status, 303)
        const url = new URL(reply.headers["location"])
        assert.strictEqual(url.origin + url.pathname, redirectUrl)
        assert.strictEqual(url.searchParams.get("state"), "s1")
        return { error: url.searchParams.get("error"), description: url.searchParams.get("error_description") ?? "" }
      }
      const plain = sentBack(yield* noFollow(base, authorizeUrl({ code_challenge_method: "plain", code_challenge: verifier })))
      assert.strictEqual(plain.error, "invalid_request")
      assert.include(plain.description, "S256")
      const noChallenge = yield* noFollow(base, `/oauth/authorize?${new URLSearchParams({ response_type: "code", client_id: clientId, redirect_uri: redirectUrl, state: "s1" })}`)
      assert.strictEqual(sentBack(noChallenge).error, "invalid_request")

      const token = (fields: Record<string, string>) =>
        call("POST", "/oauth/token", { raw: { text: new URLSearchParams(fields).toString(), contentType: "application/x-www-form-urlencoded" } })
      const codeOf = Effect.map(
        consentInBrowser(base, base + authorizeUrl({}), { email, secret }),
        ({ location }) => location.searchParams.get("code") ?? ""
      )
      const exchange = (code: string, codeVerifier = verifier) =>
        token({ grant_type: "authorization_code", code, redirect_uri: redirectUrl, client_id: clientId, code_verifier: codeVerifier })

      // A wrong verifier spends the code: PKCE binds it to the app that asked.
      const stolen = yield* exchange(yield* codeOf, "someone-elses-verifier-0123456789-0123456789")
      assert.strictEqual(stolen.status, 400)
      assert.strictEqual(stolen.body.error, "invalid_grant")
      assert.include(stolen.body.error_description, "code_verifier")

      const code = yield* codeOf
      const issued = yield* exchange(code)
      assert.strictEqual(issued.status, 200, JSON.stringify(issued.body))
      assert.strictEqual(issued.headers["cache-control"], "no-store")
      assert.strictEqual(issued.body.token_type, "Bearer")
      const ping = (accessToken: string) => call("POST", "/mcp", { token: accessToken, body: { jsonrpc: "2.0", id: 1, method: "ping" } })
      // A code works once; presented again, it also revokes what it brought.
      const reused = yield* exchange(code)
      assert.strictEqual(reused.body.error, "invalid_grant")
      assert.include(reused.body.error_description, "already used")
      assert.strictEqual((yield* ping(issued.body.access_token)).status, 401)

      // Refresh tokens rotate: each works once, and a spent one presented again revokes the grant.
      const second = yield* exchange(yield* codeOf)
      const refresh = (refreshToken: string) => token({ grant_type: "refresh_token", refresh_token: refreshToken, client_id: clientId })
      const rotated = yield* refresh(second.body.refresh_token)
      assert.strictEqual(rotated.status, 200, JSON.stringify(rotated.body))
      assert.notStrictEqual(rotated.body.refresh_token, second.body.refresh_token)
      assert.notStrictEqual((yield* ping(rotated.body.access_token)).status, 401)
      const replayed = yield* refresh(second.body.refresh_token)
      assert.strictEqual(replayed.body.error, "invalid_grant")
      assert.strictEqual((yield* ping(rotated.body.access_token)).status, 401)

      // Access tokens are short-lived (15 minutes); codes last 5.
      const late = yield* codeOf
      const third = yield* exchange(yield* codeOf)
      assert.notStrictEqual((yield* ping(third.body.access_token)).status, 401)
      yield* TestClock.adjust("16 minutes")
      const expiredToken = yield* ping(third.body.access_token)
      assert.strictEqual(expiredToken.status, 401)
      assert.include(expiredToken.headers["www-authenticate"], "invalid_token")
      const expiredCode = yield* exchange(late)
      assert.strictEqual(expiredCode.body.error, "invalid_grant")
      assert.include(expiredCode.body.error_description, "expired")
      // The refresh token outlives the access token.
      const renewed = yield* refresh(third.body.refresh_token)
      assert.strictEqual(renewed.status, 200)
      assert.notStrictEqual((yield* ping(renewed.body.access_token)).status, 401)

      // A person removed from the workspace takes their assistants' grants along, at once.
      assert.notStrictEqual((yield* ping(renewed.body.access_token)).status, 401)
      yield* (yield* Team).remove(owner, memberId).pipe(Effect.orDie)
      assert.strictEqual((yield* ping(renewed.body.access_token)).status, 401)

      const unsupported = yield* token({ grant_type: "password", username: "x" })
      assert.strictEqual(unsupported.body.error, "unsupported_grant_type")
      const missing = yield* token({ grant_type: "authorization_code", client_id: clientId })
      assert.strictEqual(missing.body.error, "invalid_request")
      assert.include(missing.body.error_description, "code")
      const stranger = yield* token({ grant_type: "refresh_token", refresh_token: "ort_x", client_id: "mcp_nobody" })
      assert.strictEqual(stranger.status, 401)
      assert.strictEqual(stranger.body.error, "invalid_client")
    }), { timeout: 60_000 })

  it.effect("in a real browser (chromium), Allow on the consent page reaches the assistant's redirect URI with a code that works", () =>
    Effect.gen(function*() {
      const { base, email, secret } = yield* setUp
      // The assistant's local callback, as a desktop app listens for it.
      const callback = yield* Effect.acquireRelease(
        Effect.promise(() =>
          new Promise<{ readonly url: string; readonly close: () => void }>((resolve) => {
            const server = createServer((_, response) => response.end("You can close this window."))
            server.listen(0, "127.0.0.1", () => {
              const address = server.address()
              const port = typeof address === "object" && address !== null ? address.port : 0
              resolve({ url: `http://127.0.0.1:${port}/callback`, close: () => server.close() })
            })
          })
        ),
        (server) => Effect.sync(server.close)
      )
      const registered = yield* call("POST", "/oauth/register", { body: { client_name: "Desktop assistant", redirect_uris: [callback.url] } })
      const verifier = "browser-verifier-0123456789-0123456789-0123456789"
      const authorizeUrl = `${base}/oauth/authorize?${new URLSearchParams({
        response_type: "code",
        client_id: registered.body.client_id,
        redirect_uri: callback.url,
        code_challenge: createHash("sha256").update(verifier).digest("base64url"),
        code_challenge_method: "S256",
        state: "a state with spaces+plus",
        scope: "mcp tools"
      })}`
      yield* TestClock.adjust("30 seconds")
      const code = totpCodeAt(secret, yield* Clock.currentTimeMillis)
      const landed = yield* Effect.promise(async () => {
        const page = await (await open()).newPage()
        await page.goto(authorizeUrl)
        await page.getByLabel("Email").fill(email)
        await page.getByLabel("Password").fill(password)
        await page.getByRole("button", { name: "Sign in" }).click()
        await page.getByLabel("Code").fill(code)
        await page.getByRole("button", { name: "Continue" }).click()
        await page.waitForURL(/\/dashboard\/oauth\/authorize/)
        assert.strictEqual(await page.locator("#client-name").innerText(), "Desktop assistant")
        await page.getByRole("button", { name: "Allow" }).click()
        await page.waitForURL(/\/callback\?/)
        return new URL(page.url())
      })
      assert.strictEqual(landed.searchParams.get("state"), "a state with spaces+plus")
      const issued = yield* call("POST", "/oauth/token", {
        raw: {
          text: new URLSearchParams({
            grant_type: "authorization_code",
            code: landed.searchParams.get("code") ?? "",
            redirect_uri: callback.url,
            client_id: registered.body.client_id,
            code_verifier: verifier
          }).toString(),
          contentType: "application/x-www-form-urlencoded"
        }
      })
      assert.strictEqual(issued.status, 200, JSON.stringify(issued.body))
      const ping = yield* call("POST", "/mcp", {
        token: issued.body.access_token,
        body: { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } } },
        headers: { accept: "application/json, text/event-stream" }
      })
      assert.strictEqual(ping.status, 200)
    }), { timeout: 120_000 })
})
