/**
 * The live driver: real LinkedIn seats through Unipile (`unipile-node-sdk` where it covers the
 * call, the documented REST call where not). Reads and writes as `Reads.ts` and `Writes.ts` map
 * them; `profile_viewers`, `ssi`, `endorse` and `save_lead` have no call in Unipile's API and fail
 * `notSupported` (listed beforehand in `capabilities`). Writes are kept before they are sent and
 * never sent twice (`Lookups.ts`); `outcomeOf` answers from the network. Needs a migrated
 * `SqlClient` for its own tables (`Store.ts`).
 */
import { DateTime, Effect, Layer } from "effect"
import { commandNames, type CommandName } from "../../domain/Commands.ts"
import { make as makeDriver, NetworkDriver, type ReadHandlers, type WriteHandlers, type WriteOutcome } from "../NetworkDriver.ts"
import { type NetworkError, networkError } from "../NetworkErrors.ts"
import { personIdentifier } from "./UnipileAddresses.ts"
import * as Client from "./UnipileClient.ts"
import { callbackPath, callbackToken, type UnipileSettings } from "./Config.ts"
import { lookup } from "./Lookups.ts"
import * as Models from "./Models.ts"
import * as RequestRate from "./RequestRate.ts"
import { profileOf, reads, unsupportedReads } from "./UnipileReads.ts"
import { named, open, retried, type Session } from "./UnipileSession.ts"
import * as Spans from "../../platform/Spans.ts"
import * as SignIn from "./UnipileSignIn.ts"
import * as Store from "./Store.ts"
import { syncSince } from "./UnipileSyncing.ts"
import { unsupportedWrites, writes } from "./UnipileWrites.ts"

/** The driver's name. */
export const name = "unipile"

/** The commands Unipile can run, in the catalogue's order. */
export const capabilities: ReadonlyArray<CommandName> = commandNames.filter((command) =>
  !unsupportedReads.some((read) => read === command) && !unsupportedWrites.some((write) => write === command)
)

/** The driver on `settings`; needs a migrated `SqlClient`. */
export const make = (settings: UnipileSettings) =>
  Effect.gen(function*() {
    const store = yield* Store.make
    const client = Client.make(settings)
    const rate = yield* RequestRate.make(settings.requestsPerMinute)
    const signIn = SignIn.make(client, store, rate.before)
    const session = (accountId: string, command: string, withNote = false) =>
      open(client, store, accountId, command, withNote, rate.before)
    const onRead = <I, A>(command: CommandName, run: (session: Session, input: I) => Effect.Effect<A, NetworkError>) =>
      (accountId: string, input: I) =>
        Effect.flatMap(session(accountId, command), (opened) => run(opened, input)).pipe(
          Effect.withSpan("UnipileDriver.read", { attributes: { accountId, command } }, Spans.perJob)
        )

    const readHandlers: ReadHandlers = {
      get_profile: onRead("get_profile", reads.get_profile),
      get_company: onRead("get_company", reads.get_company),
      search_people: onRead("search_people", reads.search_people),
      search_companies: onRead("search_companies", reads.search_companies),
      get_posts: onRead("get_posts", reads.get_posts),
      get_post: onRead("get_post", reads.get_post),
      list_chats: onRead("list_chats", reads.list_chats),
      get_conversation: onRead("get_conversation", reads.get_conversation),
      list_invites: onRead("list_invites", reads.list_invites)
    }

    const writeHandlers: WriteHandlers = {
      connect: (accountId, input, attempt) =>
        Effect.flatMap(session(accountId, "connect", input.note !== undefined && input.note !== ""), (opened) => writes.connect(opened, input, attempt)),
      withdraw_invite: (accountId, input, attempt) => Effect.flatMap(session(accountId, "withdraw_invite"), (opened) => writes.withdraw_invite(opened, input, attempt)),
      send_message: (accountId, input, attempt) => Effect.flatMap(session(accountId, "send_message"), (opened) => writes.send_message(opened, input, attempt)),
      accept_invite: (accountId, input, attempt) => Effect.flatMap(session(accountId, "accept_invite"), (opened) => writes.accept_invite(opened, input, attempt)),
      decline_invite: (accountId, input, attempt) => Effect.flatMap(session(accountId, "decline_invite"), (opened) => writes.decline_invite(opened, input, attempt)),
      react: (accountId, input, attempt) => Effect.flatMap(session(accountId, "react"), (opened) => writes.react(opened, input, attempt)),
      comment: (accountId, input, attempt) => Effect.flatMap(session(accountId, "comment"), (opened) => writes.comment(opened, input, attempt)),
      create_post: (accountId, input, attempt) => Effect.flatMap(session(accountId, "create_post"), (opened) => writes.create_post(opened, input, attempt))
    }

    return makeDriver({
      name,
      capabilities,
      reads: readHandlers,
      writes: writeHandlers,
      signIn: (input) => signIn.signIn(input),
      passCheckpoint: (input) => signIn.passCheckpoint(input),
      profileOf: signIn.profileOf,
      signInLink: (input) =>
        Effect.gen(function*() {
          const secret = settings.webhookSecret
          if (secret === undefined) {
            return yield* Effect.fail(networkError(
              "invalidInput",
              "Unipile's hosted sign-in needs UNIPILE_WEBHOOK_SECRET: its callback is verified with it.",
              "Set UNIPILE_WEBHOOK_SECRET (docs/networks.md, Going live), or sign the seat in with native-auth."
            ))
          }
          const name = `${input.workspaceId}:${input.accountId}`
          const link = {
            api_url: settings.dsn,
            expiresOn: DateTime.formatIso(DateTime.makeUnsafe(input.expiresAtMs)),
            name,
            notify_url: `${input.callbackBase}${callbackPath}?token=${callbackToken(secret, name)}`
          }
          const reconnecting = input.reconnect ? yield* store.providerAccountOf(input.accountId) : undefined
          const answer = yield* retried(client.call("account.createHostedAuthLink", (sdk) =>
            sdk.account.createHostedAuthLink(
              reconnecting === undefined
                ? { type: "create", providers: ["LINKEDIN"], ...link }
                : { type: "reconnect", reconnect_account: reconnecting, ...link }
            ))).pipe(Effect.catch(named({ command: "connect", withNote: false })))
          return answer.url
        }).pipe(Effect.withSpan("UnipileDriver.signInLink", { attributes: { accountId: input.accountId } })),
      identify: (address) =>
        Effect.gen(function*() {
          const identifier = yield* personIdentifier(address)
          const providerAccount = yield* store.anyProviderAccount
          if (providerAccount === undefined) {
            return yield* Effect.fail(networkError("network", "No seat is connected to the provider yet: a person cannot be looked up.", "Connect an account first."))
          }
          const profile = yield* profileOf({ client: Client.paced(client, rate.before(providerAccount)), store, accountId: "", providerAccount, command: "identify", withNote: false }, identifier)
          const person = Models.person(profile)
          return { providerId: person.providerId, profileUrl: person.profileUrl }
        }),
      outcomeOf: (accountId, command, key) =>
        Effect.gen(function*() {
          const attempt = yield* store.attempt(accountId, key)
          if (attempt === undefined) return { _tag: "NotHappened" } satisfies WriteOutcome
          if (attempt.result !== null) return { _tag: "Happened", result: attempt.result } satisfies WriteOutcome
          const opened = yield* session(accountId, command)
          const known = yield* lookup(opened, command, attempt)
          if (known._tag === "Found") {
            yield* store.finish(key, known.result)
            return { _tag: "Happened", result: known.result } satisfies WriteOutcome
          }
          return known._tag === "Absent" ? { _tag: "NotHappened" } satisfies WriteOutcome : { _tag: "Unknown" } satisfies WriteOutcome
        }).pipe(Effect.withSpan("UnipileDriver.outcomeOf", { attributes: { accountId, command, key } })),
      sync: (accountId, since) =>
        Effect.flatMap(session(accountId, "sync"), (opened) => syncSince(opened, since)).pipe(
          Effect.withSpan("UnipileDriver.sync", { attributes: { accountId } })
        ),
      accountRecorded: (account) =>
        account.removed ? store.unlink(account.accountId) : store.recordWorkspace(account.accountId, account.workspaceId)
    })
  })

/** The driver as the `NetworkDriver` service. */
export const layer = (settings: UnipileSettings) => Layer.effect(NetworkDriver, make(settings))
