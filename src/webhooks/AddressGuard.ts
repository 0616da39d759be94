/**
 * Where webhooks may be delivered: only https URLs whose host resolves to
 * public addresses (spec: "URLs must use https and resolve to public
 * addresses"; "no delivery to localhost or private addresses in production").
 *
 * Addresses are classified from their numeric value, never by string
 * prefix, so every spelling of an address lands in the same class: IPv4 in
 * decimal, hex, octal or short form (`2130706433`, `0x7f000001`,
 * `0177.0.0.1`, `127.1`), and IPv4 embedded in IPv6 (mapped, compatible,
 * NAT64, 6to4) is judged by the IPv4 address it carries.
 *
 * `OUTREACH_ALLOW_PRIVATE_WEBHOOKS=true` (`allowPrivate`) is for development
 * and tests: it allows http and loopback, private, unique-local and shared
 * (CGNAT) addresses. Link-local (home of cloud metadata endpoints such as
 * 169.254.169.254), multicast, unspecified, broadcast, documentation and
 * reserved addresses stay refused even then: no real receiver lives there.
 */
import { lookup } from "node:dns/promises"
import { Context, Duration, Effect, Layer, Schema } from "effect"
import * as Recent from "../platform/Recent.ts"

/** The class of an IP address, as far as webhook delivery cares. */
export type AddressKind =
  | "public"
  | "loopback"
  | "private"
  | "uniqueLocal"
  | "sharedAddressSpace"
  | "linkLocal"
  | "multicast"
  | "unspecified"
  | "broadcast"
  | "documentation"
  | "benchmarking"
  | "reserved"

/** A classified IP address. */
export interface AddressInfo {
  /** The address in canonical text form (dotted quad, or compressed lowercase IPv6). */
  readonly address: string
  readonly family: 4 | 6
  readonly kind: AddressKind
  /** For IPv6 addresses that carry an IPv4 address (mapped, compatible, NAT64, 6to4): that address, which decided `kind`. */
  readonly embeddedIPv4?: string
}

/** What a host string is. */
export type HostClass =
  | { readonly type: "ip"; readonly info: AddressInfo }
  | { readonly type: "name"; readonly name: string }
  | { readonly type: "invalid" }

/** Options of every check: whether `OUTREACH_ALLOW_PRIVATE_WEBHOOKS` is on. */
export interface GuardOptions {
  readonly allowPrivate: boolean
}

// ---------------------------------------------------------------------------
// IPv4

const ipv4Ranges: ReadonlyArray<readonly [base: string, prefix: number, kind: AddressKind]> = [
  ["255.255.255.255", 32, "broadcast"],
  ["0.0.0.0", 8, "unspecified"],
  ["10.0.0.0", 8, "private"],
  ["100.64.0.0", 10, "sharedAddressSpace"],
  ["127.0.0.0", 8, "loopback"],
  ["169.254.0.0", 16, "linkLocal"],
  ["172.16.0.0", 12, "private"],
  ["192.0.0.0", 24, "reserved"],
  ["192.0.2.0", 24, "documentation"],
  ["192.88.99.0", 24, "reserved"],
  ["192.168.0.0", 16, "private"],
  ["198.18.0.0", 15, "benchmarking"],
  ["198.51.100.0", 24, "documentation"],
  ["203.0.113.0", 24, "documentation"],
  ["224.0.0.0", 4, "multicast"],
  ["240.0.0.0", 4, "reserved"]
]

const dottedQuad = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/

const parseDottedQuad = (text: string): number | undefined => {
  const match = dottedQuad.exec(text)
  if (match === null) return undefined
  let value = 0
  for (let i = 1; i <= 4; i++) {
    const octet = Number(match[i])
    if (octet > 255) return undefined
    value = value * 256 + octet
  }
  return value
}

const ipv4Table = ipv4Ranges.map(([base, prefix, kind]) => {
  const size = 2 ** (32 - prefix)
  const start = parseDottedQuad(base) ?? 0
  return { start, end: start + size - 1, kind }
})

const formatIPv4 = (value: number): string =>
  [value >>> 24, (value >>> 16) & 255, (value >>> 8) & 255, value & 255].join(".")

const classifyIPv4Value = (value: number): AddressKind =>
  ipv4Table.find((range) => value >= range.start && value <= range.end)?.kind ?? "public"

const hexNumber = /^0[xX][0-9a-fA-F]*$/
const octalNumber = /^0[0-7]+$/
const decimalNumber = /^(0|[1-9]\d*)$/

const parseIPv4Part = (part: string): number | undefined => {
  // WHATWG URL and inet_aton read "0x" with no digits as zero.
  if (hexNumber.test(part)) return part.length === 2 ? 0 : parseInt(part.slice(2), 16)
  if (octalNumber.test(part)) return parseInt(part.slice(1), 8)
  if (decimalNumber.test(part)) return Number(part)
  return undefined
}

/**
 * Parses an IPv4 host the way WHATWG URL and `inet_aton` do, so a raw host
 * string means what a resolver would make of it: one to four parts, each
 * decimal, octal (leading 0) or hex (0x), the last filling the remaining
 * bytes. `undefined`: not an IPv4 literal (a name); `"invalid"`: it ends in
 * a number but is no valid address, which URL parsing rejects too.
 */
const parseIPv4Literal = (host: string): number | "invalid" | undefined => {
  if (host.includes(":")) return undefined
  const parts = host.split(".")
  if (parts.length > 1 && parts[parts.length - 1] === "") parts.pop()
  const last = parts[parts.length - 1]
  if (last === undefined || !(/^\d+$/.test(last) || hexNumber.test(last))) return undefined
  if (parts.length > 4) return "invalid"
  const numbers: Array<number> = []
  for (const part of parts) {
    const parsed = parseIPv4Part(part)
    if (parsed === undefined || !Number.isSafeInteger(parsed)) return "invalid"
    numbers.push(parsed)
  }
  const leading = numbers.slice(0, -1)
  const tail = numbers[numbers.length - 1] ?? 0
  if (leading.some((n) => n > 255) || tail >= 256 ** (5 - numbers.length)) return "invalid"
  return leading.reduce((sum, n, i) => sum + n * 256 ** (3 - i), 0) + tail
}

// ---------------------------------------------------------------------------
// IPv6

const hexGroup = /^[0-9a-fA-F]{1,4}$/

const parseGroups = (text: string): Array<number> | undefined => {
  if (text === "") return []
  const groups: Array<number> = []
  const parts = text.split(":")
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i] ?? ""
    if (i === parts.length - 1 && part.includes(".")) {
      const v4 = parseDottedQuad(part)
      if (v4 === undefined) return undefined
      groups.push(v4 >>> 16, v4 & 0xffff)
    } else if (hexGroup.test(part)) {
      groups.push(parseInt(part, 16))
    } else {
      return undefined
    }
  }
  return groups
}

/** Parses an IPv6 address (brackets and zone id allowed) into its eight 16-bit groups. */
const parseIPv6 = (input: string): ReadonlyArray<number> | undefined => {
  let text = input.startsWith("[") && input.endsWith("]") ? input.slice(1, -1) : input
  const zone = text.indexOf("%")
  if (zone >= 0) text = text.slice(0, zone)
  if (!text.includes(":")) return undefined
  const halves = text.split("::")
  if (halves.length > 2) return undefined
  const head = parseGroups(halves[0] ?? "")
  if (head === undefined) return undefined
  if (halves.length === 1) return head.length === 8 ? head : undefined
  const tail = parseGroups(halves[1] ?? "")
  if (tail === undefined || head.length + tail.length > 7) return undefined
  return [...head, ...Array<number>(8 - head.length - tail.length).fill(0), ...tail]
}

/** RFC 5952 text: lowercase, no leading zeros, the longest run of two or more zero groups as `::`. */
const formatIPv6 = (groups: ReadonlyArray<number>): string => {
  let bestStart = -1
  let bestLength = 1
  for (let i = 0; i < 8;) {
    if (groups[i] !== 0) {
      i++
      continue
    }
    let j = i
    while (j < 8 && groups[j] === 0) j++
    if (j - i > bestLength) {
      bestStart = i
      bestLength = j - i
    }
    i = j
  }
  const hex = groups.map((g) => g.toString(16))
  if (bestStart < 0) return hex.join(":")
  return `${hex.slice(0, bestStart).join(":")}::${hex.slice(bestStart + bestLength).join(":")}`
}

const classifyIPv6Groups = (g: ReadonlyArray<number>): AddressInfo => {
  const address = formatIPv6(g)
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = g
  const embedded = (high: number, low: number): AddressInfo => {
    const v4 = high * 65536 + low
    return { address, family: 6, kind: classifyIPv4Value(v4), embeddedIPv4: formatIPv4(v4) }
  }
  const plain = (kind: AddressKind): AddressInfo => ({ address, family: 6, kind })
  const firstFiveZero = g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0

  if (firstFiveZero && g5 === 0 && g6 === 0 && g7 === 0) return plain("unspecified")
  if (firstFiveZero && g5 === 0 && g6 === 0 && g7 === 1) return plain("loopback")
  // ::ffff:a.b.c.d (mapped) and ::a.b.c.d (compatible): the socket talks to the IPv4 address.
  if (firstFiveZero && (g5 === 0xffff || g5 === 0)) return embedded(g6, g7)
  // 64:ff9b::/96, the well-known NAT64 prefix: a translator forwards to the embedded IPv4 address.
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return embedded(g6, g7)
  // 64:ff9b:1::/48, local-use NAT64 (RFC 8215): translates into the operator's own network.
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 1) return plain("private")
  // 2002::/16, 6to4: the relay forwards to the IPv4 address in bits 16 to 48.
  if (g0 === 0x2002) return embedded(g1, g2)
  if (g0 === 0x2001 && g1 === 0x0db8) return plain("documentation")
  if (g0 === 0x3fff && g1 < 0x1000) return plain("documentation")
  if (g0 === 0x2001 && g1 === 0x0002 && g2 === 0) return plain("benchmarking")
  // 2001::/23 (IETF protocol assignments, Teredo among them) is not ordinary global unicast.
  if (g0 === 0x2001 && g1 < 0x0200) return plain("reserved")
  if ((g0 & 0xfe00) === 0xfc00) return plain("uniqueLocal")
  if ((g0 & 0xffc0) === 0xfe80) return plain("linkLocal")
  // fec0::/10, deprecated site-local: private by intent.
  if ((g0 & 0xffc0) === 0xfec0) return plain("private")
  if ((g0 & 0xff00) === 0xff00) return plain("multicast")
  // Only 2000::/3 is allocated as global unicast; everything else is special or unassigned.
  if ((g0 & 0xe000) !== 0x2000) return plain("reserved")
  return plain("public")
}

// ---------------------------------------------------------------------------
// Public classification API

/**
 * Classifies an IP address literal: IPv4 in any numeric spelling or IPv6
 * (brackets and zone id allowed). `undefined` when the text is no IP address.
 */
export const classifyAddress = (text: string): AddressInfo | undefined => {
  const v4 = parseIPv4Literal(text)
  if (typeof v4 === "number") return { address: formatIPv4(v4), family: 4, kind: classifyIPv4Value(v4) }
  if (v4 === "invalid") return undefined
  const v6 = parseIPv6(text)
  return v6 === undefined ? undefined : classifyIPv6Groups(v6)
}

const hostnameLabel = /^(?!-)[a-z0-9_-]{1,63}(?<!-)$/

/**
 * What a host is: an IP literal (classified), a DNS name (lowercased,
 * trailing dot removed), or invalid (a numeric host that is no address, or
 * a name with characters DNS does not allow).
 */
export const classifyHost = (host: string): HostClass => {
  const v4 = parseIPv4Literal(host)
  if (v4 === "invalid") return { type: "invalid" }
  const info = classifyAddress(host)
  if (info !== undefined) return { type: "ip", info }
  if (host.includes(":") || host.includes("[")) return { type: "invalid" }
  const name = host.toLowerCase().replace(/\.$/, "")
  if (name.length === 0 || name.length > 253 || !name.split(".").every((label) => hostnameLabel.test(label))) {
    return { type: "invalid" }
  }
  return { type: "name", name }
}

const privateKinds: ReadonlySet<AddressKind> = new Set(["loopback", "private", "uniqueLocal", "sharedAddressSpace"])

/** Whether a webhook may be delivered to this address. */
export const isAllowedAddress = (info: AddressInfo, options: GuardOptions): boolean =>
  info.kind === "public" || (options.allowPrivate && privateKinds.has(info.kind))

/** Names that always mean this machine (RFC 6761), whatever DNS says. */
const isLocalName = (name: string): boolean => name === "localhost" || name.endsWith(".localhost")

const describeAddress = (info: AddressInfo): string =>
  info.embeddedIPv4 === undefined
    ? `${info.address}, a ${info.kind} address`
    : `${info.address}, which carries the ${info.kind} IPv4 address ${info.embeddedIPv4}`

// ---------------------------------------------------------------------------
// URL check (no DNS)

/** Why a webhook URL or host was refused. */
export type RefusalReason =
  /** Not an absolute URL. */
  | "invalidUrl"
  /** A scheme other than http or https. */
  | "unsupportedScheme"
  /** http while private webhooks are not allowed. */
  | "httpsRequired"
  /** The host is neither a valid IP address nor a valid DNS name. */
  | "invalidHost"
  /** `localhost` or a name under `.localhost`. */
  | "localHostname"
  /** The host is, or resolves to, an address that is not public. */
  | "forbiddenAddress"
  /** The name does not resolve. */
  | "unresolvable"

/** The outcome of `checkUrl`. */
export type UrlCheck =
  | {
    readonly ok: true
    readonly url: URL
    /** The hostname without IPv6 brackets, as DNS or a socket wants it. */
    readonly host: string
    /** Set when the host is an IP literal; it needs no DNS. */
    readonly address?: AddressInfo
  }
  | {
    readonly ok: false
    readonly reason: RefusalReason
    readonly message: string
    readonly address?: AddressInfo
  }

const unbracket = (hostname: string): string =>
  hostname.startsWith("[") && hostname.endsWith("]") ? hostname.slice(1, -1) : hostname

/**
 * Checks a webhook URL without DNS: https (or http when `allowPrivate`),
 * and a host that is an allowed IP literal or a plausible public name.
 * A name still has to pass `resolveAndCheck` before anything is sent to it.
 */
export const checkUrl = (input: string | URL, options: GuardOptions): UrlCheck => {
  let url: URL
  try {
    url = new URL(input)
  } catch {
    return { ok: false, reason: "invalidUrl", message: "The webhook URL is not a valid absolute URL." }
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    return { ok: false, reason: "unsupportedScheme", message: `The webhook URL must use https, not ${url.protocol}` }
  }
  if (url.protocol === "http:" && !options.allowPrivate) {
    return { ok: false, reason: "httpsRequired", message: "The webhook URL must use https." }
  }
  const host = unbracket(url.hostname)
  const hostClass = classifyHost(host)
  switch (hostClass.type) {
    case "invalid":
      return { ok: false, reason: "invalidHost", message: `The webhook host ${url.hostname} is not valid.` }
    case "ip":
      return isAllowedAddress(hostClass.info, options)
        ? { ok: true, url, host, address: hostClass.info }
        : {
          ok: false,
          reason: "forbiddenAddress",
          message: `Webhooks cannot be delivered to ${describeAddress(hostClass.info)}.`,
          address: hostClass.info
        }
    case "name":
      if (isLocalName(hostClass.name) && !options.allowPrivate) {
        return { ok: false, reason: "localHostname", message: `Webhooks cannot be delivered to ${hostClass.name}.` }
      }
      return { ok: true, url, host }
  }
}

/**
 * Whether `OUTREACH_ALLOW_PRIVATE_WEBHOOKS=true` would have let a refused URL
 * through: plain http, `localhost`, or a loopback or private address (never
 * link-local, multicast or reserved ones, which stay refused).
 */
export const allowedWithPrivateWebhooks = (refusal: { readonly reason: RefusalReason; readonly address?: string | undefined }): boolean => {
  switch (refusal.reason) {
    case "httpsRequired":
    case "localHostname":
      return true
    case "forbiddenAddress": {
      const info = refusal.address === undefined ? undefined : classifyAddress(refusal.address)
      return info !== undefined && privateKinds.has(info.kind)
    }
    default:
      return false
  }
}

// ---------------------------------------------------------------------------
// DNS

/** A webhook URL or host was refused; `reason` says which rule. */
export class WebhookTargetRefused extends Schema.TaggedError<WebhookTargetRefused>()("WebhookTargetRefused", {
  reason: Schema.Literals([
    "invalidUrl",
    "unsupportedScheme",
    "httpsRequired",
    "invalidHost",
    "localHostname",
    "forbiddenAddress",
    "unresolvable"
  ]),
  message: Schema.String,
  address: Schema.optional(Schema.String)
}) {}

/** One address a resolver returned. */
export interface ResolvedAddress {
  readonly address: string
  readonly family: number
}

/** A name could not be resolved. */
export class LookupFailed extends Schema.TaggedError<LookupFailed>()("LookupFailed", {
  host: Schema.String,
  code: Schema.String
}) {}

/** Resolves a host name to every A and AAAA address. */
export interface Resolver {
  readonly lookup: (host: string) => Effect.Effect<ReadonlyArray<ResolvedAddress>, LookupFailed>
}

const systemResolver: Resolver = {
  lookup: (host) =>
    Effect.tryPromise({
      try: () => lookup(host, { all: true, order: "verbatim" }),
      catch: (error) =>
        new LookupFailed({
          host,
          code: typeof error === "object" && error !== null && "code" in error ? String(error.code) : String(error)
        })
    })
}

const staticResolver = (records: Readonly<Record<string, ReadonlyArray<string>>>): Resolver => ({
  lookup: (host) => {
    const addresses = records[host]
    return addresses === undefined
      ? Effect.fail(new LookupFailed({ host, code: "ENOTFOUND" }))
      : Effect.succeed(addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 })))
  }
})

/**
 * The resolver webhook vetting uses. A reference with the system resolver
 * (`getaddrinfo` through `dns.lookup`, every address, in the resolver's
 * order) as its default, so the service needs no wiring and tests or
 * embedders swap it with `WebhookResolver.layerStatic(...)` or their own.
 */
const resolverReference = Context.Reference<Resolver>("outreach/WebhookResolver", {
  defaultValue: () => systemResolver
})

export const WebhookResolver = Object.assign(resolverReference, {
  /** The system resolver. */
  layer: Layer.succeed(resolverReference, systemResolver),
  /** A fixed table of names to addresses; a name not in it fails as `ENOTFOUND`. */
  layerStatic: (records: Readonly<Record<string, ReadonlyArray<string>>>): Layer.Layer<never> =>
    Layer.succeed(resolverReference, staticResolver(records))
})

/** How long a host name may take to resolve, at registration and before each delivery. */
export const DNS_DEADLINE = Duration.seconds(2)

/** A host whose every address was vetted, and the address to connect to. */
export interface VettedTarget {
  /** The host as given (what goes into `Host` and TLS SNI). */
  readonly host: string
  /** The address to pin the connection to, so a second DNS answer cannot redirect it. */
  readonly address: string
  readonly family: 4 | 6
  /** Every address the host resolved to, all of them allowed. */
  readonly addresses: ReadonlyArray<string>
}

const refusal = (reason: WebhookTargetRefused["reason"], message: string, address?: string) =>
  new WebhookTargetRefused(address === undefined ? { reason, message } : { reason, message, address })

const refuse = (reason: WebhookTargetRefused["reason"], message: string, address?: string) =>
  Effect.fail(refusal(reason, message, address))

/**
 * A name's resolved addresses vetted: refused when any of them is not allowed
 * (a name with one public and one private address could be steered to the
 * private one), else the first to pin the connection to.
 */
const vetResolved = (
  host: string,
  name: string,
  resolved: ReadonlyArray<ResolvedAddress>,
  options: GuardOptions
): VettedTarget | WebhookTargetRefused => {
  const infos: Array<AddressInfo> = []
  for (const entry of resolved) {
    const info = classifyAddress(entry.address)
    if (info === undefined) {
      return refusal("unresolvable", `The webhook host ${name} resolved to ${entry.address}, which is no IP address.`)
    }
    if (!isAllowedAddress(info, options)) {
      return refusal("forbiddenAddress", `The webhook host ${name} resolves to ${describeAddress(info)}.`, info.address)
    }
    infos.push(info)
  }
  const first = infos[0]
  if (first === undefined) return refusal("unresolvable", `The webhook host ${name} has no addresses.`)
  return { host, address: first.address, family: first.family, addresses: infos.map((info) => info.address) }
}

/** What vetting a host takes without DNS: a decision (an IP literal, a refused name), or a name to resolve. */
const planHost = (host: string, options: GuardOptions): VettedTarget | WebhookTargetRefused | { readonly resolve: string } => {
  const hostClass = classifyHost(unbracket(host))
  if (hostClass.type === "invalid") return refusal("invalidHost", `The webhook host ${host} is not valid.`)
  if (hostClass.type === "ip") {
    const info = hostClass.info
    if (!isAllowedAddress(info, options)) {
      return refusal("forbiddenAddress", `Webhooks cannot be delivered to ${describeAddress(info)}.`, info.address)
    }
    return { host, address: info.address, family: info.family, addresses: [info.address] }
  }
  const name = hostClass.name
  if (isLocalName(name) && !options.allowPrivate) {
    return refusal("localHostname", `Webhooks cannot be delivered to ${name}.`)
  }
  return { resolve: name }
}

/** A name's addresses, within `DNS_DEADLINE`: a resolver that does not answer must not hold a request (or a delivery) for long. */
const resolveName = (resolver: Resolver, name: string): Effect.Effect<ReadonlyArray<ResolvedAddress>, WebhookTargetRefused> =>
  resolver.lookup(name).pipe(
    Effect.timeoutOrElse({
      duration: DNS_DEADLINE,
      orElse: () => Effect.fail(new LookupFailed({ host: name, code: "ETIMEOUT" }))
    }),
    Effect.catchTag("LookupFailed", (error) =>
      refuse(
        "unresolvable",
        error.code === "ETIMEOUT"
          ? `The webhook host ${name} did not resolve within ${Duration.format(DNS_DEADLINE)}.`
          : `The webhook host ${name} does not resolve (${error.code}).`
      ))
  )

/**
 * Resolves a host and refuses it when ANY of its addresses is not allowed:
 * a name with one public and one private address could be steered to the
 * private one. Succeeds with the address to pin the connection to. IP
 * literals (in any numeric spelling) are judged without DNS.
 */
export const resolveAndCheck = Effect.fn("WebhookTarget.resolveAndCheck")(function*(
  host: string,
  options: GuardOptions
) {
  const plan = planHost(host, options)
  if (plan instanceof WebhookTargetRefused) return yield* plan
  if (!("resolve" in plan)) return plan
  const resolved = yield* resolveName(yield* WebhookResolver, plan.resolve)
  const vetted = vetResolved(host, plan.resolve, resolved, options)
  return vetted instanceof WebhookTargetRefused ? yield* vetted : vetted
})

/** A webhook URL that passed vetting, and the address to connect to. */
export interface VettedUrl {
  readonly url: URL
  readonly target: VettedTarget
}

/**
 * The whole vetting of a webhook URL: `checkUrl`, then `resolveAndCheck` of
 * its host. Run it when an endpoint is registered or changed, and again
 * before every delivery (DNS answers change), or through a `urlVetter`.
 */
export const vetUrl = Effect.fn("WebhookTarget.vetUrl")(function*(url: string | URL, options: GuardOptions) {
  const checked = checkUrl(url, options)
  if (!checked.ok) return yield* refuse(checked.reason, checked.message, checked.address?.address)
  const target = yield* resolveAndCheck(checked.host, options)
  const vetted: VettedUrl = { url: checked.url, target }
  return vetted
})

/** URLs (and, per URL, DNS answers) a `urlVetter` keeps its verdicts for; past this the oldest go. */
const keptVerdicts = 1024

/**
 * `vetUrl` for a caller that vets the same URLs before every delivery: what
 * depends only on the URL (its check, and the whole verdict on an IP-literal
 * host) is worked out once per URL, and a name is still resolved every time,
 * its answer vetted once per distinct answer. The same rules as `vetUrl`,
 * with `resolver` instead of the `WebhookResolver` in context.
 */
export const urlVetter = (
  options: GuardOptions,
  resolver: Resolver
): (url: string) => Effect.Effect<VettedUrl, WebhookTargetRefused> => {
  const verdicts = Recent.make<string, Effect.Effect<VettedUrl, WebhookTargetRefused>>(keptVerdicts)
  const verdictOf = (input: string): Effect.Effect<VettedUrl, WebhookTargetRefused> => {
    const checked = checkUrl(input, options)
    if (!checked.ok) return Effect.fail(refusal(checked.reason, checked.message, checked.address?.address))
    const { host, url } = checked
    const plan = planHost(host, options)
    if (plan instanceof WebhookTargetRefused) return Effect.fail(plan)
    if (!("resolve" in plan)) return Effect.succeed({ url, target: plan })
    const byAnswer = Recent.make<string, Effect.Effect<VettedUrl, WebhookTargetRefused>>(keptVerdicts)
    return Effect.flatMap(resolveName(resolver, plan.resolve), (resolved) =>
      byAnswer.getOrAdd(resolved.map((entry) => entry.address).join(" "), () => {
        const target = vetResolved(host, plan.resolve, resolved, options)
        return target instanceof WebhookTargetRefused ? Effect.fail(target) : Effect.succeed({ url, target })
      }))
  }
  return (input) => verdicts.getOrAdd(input, () => verdictOf(input))
}
