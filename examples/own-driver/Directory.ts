/**
 * An embedder's own network driver: a small in-memory directory of people
 * standing in for a real network client. It implements the service's
 * `NetworkDriver` port; the Governor, budgets, approvals and webhooks of the
 * core work on it unchanged.
 */
import { Clock, Effect, Layer, Redacted } from "effect"
import { NetworkDriver, NetworkErrors, type NetworkModels } from "outreach-service"

const people: ReadonlyArray<NetworkModels.Person> = [{
  providerId: "ACoAAExample1",
  publicIdentifier: "grace-hopper",
  profileUrl: "https://www.linkedin.com/in/grace-hopper",
  firstName: "Grace",
  lastName: "Hopper",
  name: "Grace Hopper",
  headline: "Rear Admiral, computer scientist",
  company: { id: "navy", name: "US Navy", profileUrl: "https://www.linkedin.com/company/navy" },
  title: "Rear Admiral",
  location: "Arlington, Virginia, United States",
  industry: "Armed Forces",
  connectionDegree: 1,
  mutualConnections: 3,
  followers: 1200,
  connections: "500+",
  about: null,
  experience: [],
  skills: ["COBOL", "Compilers"],
  recentActivity: { lastPostAt: null, postsPerMonth: 0 },
  openToWork: false,
  premium: false,
  signals: { hasPhoto: true, verified: true, creatorMode: false, profileCompleteness: 80 }
}]

const find = (address: string) => {
  const found = people.find((p) =>
    p.profileUrl === address || p.publicIdentifier === address || p.providerId === address ||
    address.endsWith(`/in/${p.publicIdentifier}`)
  )
  return found === undefined
    ? Effect.fail(NetworkErrors.networkError("notFound", `No one at ${address}.`, "Check the address."))
    : Effect.succeed(found)
}

/** The directory as the service's network driver. */
export const layer = Layer.succeed(NetworkDriver.NetworkDriver, NetworkDriver.make({
  name: "directory",
  signIn: ({ password }) =>
    Effect.succeed(
      Redacted.value(password) === ""
        ? { _tag: "Rejected", message: "Empty password." }
        : { _tag: "Connected", profile: { tier: "free", products: [], connections: 120 } }
    ),
  passCheckpoint: () => Effect.succeed({ _tag: "Rejected", message: "This directory asks for no checkpoint." }),
  profileOf: () => Effect.succeed({ tier: "free", products: [], connections: 120 }),
  identify: (address) => Effect.map(find(address), (p) => ({ providerId: p.providerId, profileUrl: p.profileUrl })),
  reads: { get_profile: (_accountId, { person }) => find(person) },
  writes: {
    send_message: (_accountId, input) =>
      Effect.gen(function*() {
        if (input.person === undefined) {
          return yield* NetworkErrors.networkError("invalidInput", "This directory has no chats.", "Name the `person`.")
        }
        const person = yield* find(input.person)
        const now = yield* Clock.currentTimeMillis
        return {
          chatId: `chat-${person.providerId}`,
          messageId: `msg-${now}`,
          recipientProviderId: person.providerId,
          text: input.text,
          inmail: false,
          sentAt: new Date(now).toISOString()
        }
      })
  },
  sync: () => Effect.map(Clock.currentTimeMillis, (now) => ({ syncedUntil: now, invitations: [], messages: [] }))
}))
