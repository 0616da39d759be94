/**
 * What the fuzz suite sends: a request is planned by fast-check from a seed
 * (which operation, what kind of attack, a seed for its values) and built
 * from the served document, so a failure replays from the printed seed.
 */
import fc from "fast-check"
import type { Document, Operation } from "./Document.ts"

/** The kinds of request, from well-formed to hostile. */
export const kinds = [
  "valid",
  "missingField",
  "wrongType",
  "unknownField",
  "nulText",
  "loneSurrogate",
  "hugeText",
  "deepJson",
  "hugeArray",
  "notAnObject",
  "malformedJson",
  "wrongContentType",
  "badPathSegment",
  "unknownPath",
  "wrongMethod",
  "badQuery",
  "noKey",
  "badKey",
  "revokedKey",
  "otherWorkspace"
] as const
export type Kind = (typeof kinds)[number]

/** One planned request: built deterministically by `build`. */
export interface Plan {
  readonly operation: number
  readonly kind: Kind
  readonly seed: number
}

/** `count` plans drawn from `seed`. */
export const plans = (operations: number, count: number, seed: number): ReadonlyArray<Plan> =>
  fc.sample(
    fc.record({
      operation: fc.nat({ max: operations - 1 }),
      // About a third of the requests match the document; the rest spread over the attacks.
      kind: fc.oneof({ arbitrary: fc.constant<Kind>("valid"), weight: 10 }, { arbitrary: fc.constantFrom(...kinds), weight: 20 }),
      seed: fc.nat({ max: 2 ** 31 - 1 })
    }),
    { seed, numRuns: count }
  )

/** Which credential a request carries. */
export type Credential = "workspace" | "none" | "bad" | "revoked" | "other"

/** A request ready to send. */
export interface Request {
  readonly method: Operation["method"]
  readonly path: string
  readonly credential: Credential
  readonly body?: { readonly json: unknown } | { readonly raw: string; readonly contentType: string }
  /** It matches the document: it must not be refused as malformed. */
  readonly valid: boolean
  /** The operation it aims at, when its method and path are the document's. */
  readonly operation: Operation | undefined
}

/** Ids of the workspace's own resources, by the collection their path starts with. */
export type Samples = Readonly<Record<string, string>>

const random = (seed: number) => {
  let state = seed || 1
  return (n: number) => {
    state = (state * 48271) % 2147483647
    return state % n
  }
}

/** A version-4 UUID drawn from the plan's own generator, so a replay asks for the same one. */
const uuidFrom = (pick: (n: number) => number): string => {
  const hex = Array.from({ length: 32 }, () => pick(16).toString(16))
  hex[12] = "4"
  hex[16] = "8"
  return [hex.slice(0, 8), hex.slice(8, 12), hex.slice(12, 16), hex.slice(16, 20), hex.slice(20)].map((p) => p.join("")).join("-")
}

const collectionOf = (path: string): string => path.split("/").slice(0, -1).join("/")

/** The template filled with the workspace's own ids (or a random one where it has none). */
const fill = (template: string, samples: Samples, pick: (n: number) => number): string =>
  template.replace(/\{[^}]+\}/g, (_match, offset: number) => {
    const collection = collectionOf(template.slice(0, offset + 1))
    const own = samples[collection]
    return own !== undefined && pick(4) > 0 ? own : uuidFrom(pick)
  })

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/** The string fields of a value, with a way to replace each. */
const stringSlots = (value: unknown, replace: (next: unknown) => unknown): Array<(text: string) => unknown> => {
  if (typeof value === "string") return [(text) => replace(text)]
  if (Array.isArray(value)) {
    return value.flatMap((item, i) =>
      stringSlots(item, (next) => replace(value.map((old, j) => (i === j ? next : old))))
    )
  }
  if (isObject(value)) {
    return Object.entries(value).flatMap(([key, item]) =>
      stringSlots(item, (next) => replace({ ...value, [key]: next }))
    )
  }
  return []
}

const replaceOneString = (body: unknown, pick: (n: number) => number, text: (old: string) => string): unknown => {
  const slots = stringSlots(body, (next) => next)
  if (slots.length === 0) return { name: text("x") }
  return slots[pick(slots.length)](text("x"))
}

/**
 * A URL the fuzz generated must never make the service deliver anywhere but
 * this machine: every absolute http(s) URL in a body becomes a loopback one.
 */
const loopbackOnly = (value: unknown): unknown => {
  if (typeof value === "string") return /^\s*https?:/i.test(value) ? "http://127.0.0.1:9/fuzz" : value
  if (Array.isArray(value)) return value.map(loopbackOnly)
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, loopbackOnly(v)]))
  return value
}

const queryString = (pairs: ReadonlyArray<readonly [string, string]>): string =>
  pairs.length === 0 ? "" : "?" + pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join("&")

/** Builds the request a plan describes. */
export const build = (doc: Document, plan: Plan, samples: Samples): Request => {
  const operation = doc.operations[plan.operation]
  const pick = random(plan.seed)
  const sampled = (schema: Record<string, unknown>) => loopbackOnly(doc.sample(schema, plan.seed))
  // A cursor is an opaque handle the API gives out, like an id: it cannot be drawn from its
  // schema, so generated requests leave it out (bad cursors are among the `badQuery` kind).
  const query = operation.query
    .filter((parameter) => parameter.name !== "cursor" && (parameter.required || pick(2) === 0))
    // A long-poll only sleeps (and on the test clock, until the clock moves): it waits 0 seconds here.
    .map((parameter) => [parameter.name, parameter.name === "wait" ? "0" : String(sampled(parameter.schema))] as const)
  const validQuery = query.every(([name, value]) =>
    doc.matches(operation.query.find((p) => p.name === name)?.schema ?? {}, value)
  )
  const path = fill(operation.path, samples, pick)
  const body = operation.body === undefined ? undefined : sampled(operation.body)
  const validBody = operation.body === undefined || doc.matches(operation.body, body)
  const base = {
    method: operation.method,
    path: path + queryString(query),
    credential: "workspace" as Credential,
    valid: false,
    operation
  }
  const withBody = (json: unknown): Request => ({ ...base, body: { json } })
  switch (plan.kind) {
    case "valid":
      return {
        ...base,
        ...(body === undefined ? {} : { body: { json: body } }),
        valid: validBody && validQuery && !path.includes("{")
      }
    case "missingField":
      return withBody(isObject(body) ? Object.fromEntries(Object.entries(body).slice(1)) : {})
    case "wrongType":
      return withBody(isObject(body) && Object.keys(body).length > 0
        ? { ...body, [Object.keys(body)[pick(Object.keys(body).length)]]: [true, { a: 1 }, 7, null][pick(4)] }
        : [1, 2, 3])
    case "unknownField":
      return withBody({ ...(isObject(body) ? body : {}), ["zz" + plan.seed.toString(36)]: 1 })
    case "nulText":
      return withBody(replaceOneString(body, pick, (old) => old + "\u0000"))
    case "loneSurrogate":
      return withBody(replaceOneString(body, pick, (old) => old + "\ud800"))
    case "hugeText":
      return withBody(replaceOneString(body, pick, () => "\u00e9".repeat(200_000)))
    case "deepJson":
      return {
        ...base,
        body: { raw: "[".repeat(20_000) + "]".repeat(20_000), contentType: "application/json" }
      }
    case "hugeArray":
      return withBody(isObject(body) && Object.keys(body).length > 0
        ? { ...body, [Object.keys(body)[0]]: Array.from({ length: 50_000 }, (_, i) => i) }
        : Array.from({ length: 50_000 }, () => "x"))
    case "notAnObject":
      return withBody(["x", 42, null, true, []][pick(5)])
    case "malformedJson":
      return { ...base, body: { raw: "{\"a\": [1, 2", contentType: "application/json" } }
    case "wrongContentType":
      return { ...base, body: { raw: "name=x&a=1", contentType: ["text/plain", "application/x-www-form-urlencoded", "application/xml"][pick(3)] } }
    case "badPathSegment": {
      const segments = path.split("/")
      const at = 1 + pick(segments.length - 1)
      // No dot segments (`..`, `%2e%2e`): the client resolves them itself, so the server never sees them.
      const bad = [";x=1", "%zz", "a".repeat(150), "%25", "%00", "\u00e9\u00e9", "%2F", ";"][pick(8)]
      segments[at] = pick(2) === 0 ? segments[at] + bad : bad
      return { ...base, path: segments.join("/"), operation: undefined }
    }
    case "unknownPath": {
      // Near misses, but never a path the document has (`/v1/webhooks/{id}` + `/deliveries` is one).
      const documented = new Set(doc.operations.map((o) => o.path))
      const suffixes = ["x", "deliveries", "1", "%3B", "limits"].filter((suffix) => !documented.has(`${operation.path}/${suffix}`))
      return { ...base, path: path + "/" + suffixes[pick(suffixes.length)], operation: undefined }
    }
    case "wrongMethod": {
      const allowed = new Set(doc.operations.filter((o) => o.path === operation.path).map((o) => o.method))
      const other = (["GET", "POST", "PUT", "PATCH", "DELETE"] as const).filter((m) => !allowed.has(m))
      if (other.length === 0) return { ...base, valid: false }
      return { ...base, method: other[pick(other.length)], operation: undefined }
    }
    case "badQuery": {
      const names = operation.query.length > 0 ? operation.query.map((p) => p.name) : ["wait", "limit"]
      const value = ["-1", "abc", "99999999999", "\u0000", "%zz", "1e3", "", " 1"][pick(8)]
      return { ...base, path: path + "?" + encodeURIComponent(names[pick(names.length)]) + "=" + encodeURIComponent(value) }
    }
    case "noKey":
      return { ...base, credential: "none" }
    case "badKey":
      return { ...base, credential: "bad" }
    case "revokedKey":
      return { ...base, credential: "revoked" }
    case "otherWorkspace":
      return { ...base, credential: "other" }
  }
}
