/**
 * What the OpenAPI document says beyond the schemas: the rate-limit headers
 * that every response of a gated route carries, and `retry-after` on 429.
 */
import { type Action, actions, allowedNames, rules } from "../domain/Permissions.ts"
import { webhooksSection } from "./WebhooksApi.ts"

type Json = Record<string, unknown>

const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value)

const integerHeader = (description: string) => ({ description, schema: { type: "integer", minimum: 0 } })

/** Header definitions, referenced from every response. */
export const headerComponents = {
  RateLimitLimit: integerHeader("Requests allowed per calendar minute for this credential (600)."),
  RateLimitRemaining: integerHeader("Requests left in the current calendar minute."),
  RateLimitReset: integerHeader("Seconds until the current calendar minute ends and the count resets."),
  RetryAfter: integerHeader("Seconds to wait before the next request (on 429 only).")
} as const

const rateLimitHeaders = {
  "ratelimit-limit": { $ref: "#/components/headers/RateLimitLimit" },
  "ratelimit-remaining": { $ref: "#/components/headers/RateLimitRemaining" },
  "ratelimit-reset": { $ref: "#/components/headers/RateLimitReset" }
}

/** Paths the request gate does not count (no rate-limit headers). */
const ungatedPaths = new Set(["/healthz"])

/** Adds the rate-limit headers to every response of every gated operation. */
export const documentRateLimitHeaders = (spec: Json): Json => {
  const paths = isObject(spec["paths"]) ? spec["paths"] : {}
  for (const [path, item] of Object.entries(paths)) {
    if (!isObject(item)) continue
    if (ungatedPaths.has(path)) {
      // Not counted, so never 429 (the request middleware declares it for every operation).
      for (const operation of Object.values(item)) {
        if (isObject(operation) && isObject(operation["responses"])) delete operation["responses"]["429"]
      }
      continue
    }
    for (const operation of Object.values(item)) {
      if (!isObject(operation) || !isObject(operation["responses"])) continue
      for (const [status, response] of Object.entries(operation["responses"])) {
        if (!isObject(response)) continue
        // Added to the response's own headers (such as `idempotent-replayed`), never in their place.
        const own = isObject(response["headers"]) ? response["headers"] : {}
        response["headers"] = status === "429"
          ? { ...own, ...rateLimitHeaders, "retry-after": { $ref: "#/components/headers/RetryAfter" } }
          : { ...own, ...rateLimitHeaders }
      }
    }
  }
  const components = isObject(spec["components"]) ? spec["components"] : {}
  return { ...spec, components: { ...components, headers: headerComponents } }
}

/** Statuses only an operation that takes a body can answer. */
const bodyStatuses = ["413", "415"]

/** Leaves 413 and 415 (declared for every operation by the request middleware) only where a body is taken. */
export const documentBodyErrors = (spec: Json): Json => {
  const paths = isObject(spec["paths"]) ? spec["paths"] : {}
  for (const item of Object.values(paths)) {
    if (!isObject(item)) continue
    for (const operation of Object.values(item)) {
      if (!isObject(operation) || !isObject(operation["responses"]) || "requestBody" in operation) continue
      for (const status of bodyStatuses) delete operation["responses"][status]
    }
  }
  return spec
}

/** Adds the OpenAPI 3.1 top-level `webhooks` section: one request per event type. */
export const documentWebhooks = (spec: Json): Json => ({ ...spec, webhooks: webhooksSection() })

/**
 * Writes HTTP auth schemes in lowercase (`bearer`), as RFC 9110 registers them: the API
 * reference (Scalar) shows `Authorization: Bearer ...` in its snippets only then, and
 * `Basic username:password` for the capitalised `Bearer` that `HttpApiSecurity.bearer` emits.
 */
export const documentBearerScheme = (spec: Json): Json => {
  const components = isObject(spec["components"]) ? spec["components"] : {}
  const schemes = isObject(components["securitySchemes"]) ? components["securitySchemes"] : {}
  for (const scheme of Object.values(schemes)) {
    if (isObject(scheme) && scheme["type"] === "http" && typeof scheme["scheme"] === "string") {
      scheme["scheme"] = scheme["scheme"].toLowerCase()
    }
  }
  return spec
}

/** The first example a JSON Schema carries, at its top or on one of its `allOf` checks. */
const firstExample = (schema: unknown): unknown => {
  if (!isObject(schema)) return undefined
  if (Array.isArray(schema["examples"]) && schema["examples"].length > 0) return schema["examples"][0]
  return Array.isArray(schema["allOf"]) ? schema["allOf"].map(firstExample).find((example) => example !== undefined) : undefined
}

/** An object schema's example made of its properties' own examples, when each property has one. */
const examplesOfProperties = (schema: unknown): unknown => {
  if (!isObject(schema) || !isObject(schema["properties"])) return undefined
  const entries = Object.entries(schema["properties"]).map(([key, property]) => [key, firstExample(property)] as const)
  return entries.every(([, example]) => example !== undefined) ? Object.fromEntries(entries) : undefined
}

/**
 * Gives each JSON request body an `example` (its schema's first, or one made of its properties'
 * own), and each query or header parameter the first example of its schema: the API reference builds its
 * snippets from these, and reads no example inside an `allOf`. Without them it puts `""` where a
 * UUID is due, and assembles a body from every property's example, which breaks the body's
 * rules (`person` and `company` together in `get_posts`).
 */
export const documentBodyExamples = (spec: Json): Json => {
  const components = isObject(spec["components"]) ? spec["components"] : {}
  const schemas = isObject(components["schemas"]) ? components["schemas"] : {}
  const paths = isObject(spec["paths"]) ? spec["paths"] : {}
  for (const item of Object.values(paths)) {
    if (!isObject(item)) continue
    for (const operation of Object.values(item)) {
      const parameters = isObject(operation) && Array.isArray(operation["parameters"]) ? operation["parameters"] : []
      for (const parameter of parameters) {
        // Path parameters stay `{id}` in the snippets, for the reader to fill in.
        const example = isObject(parameter) && parameter["in"] !== "path" && !("example" in parameter)
          ? firstExample(parameter["schema"])
          : undefined
        if (isObject(parameter) && example !== undefined) parameter["example"] = example
      }
      const body = isObject(operation) && isObject(operation["requestBody"]) ? operation["requestBody"] : undefined
      const content = body !== undefined && isObject(body["content"]) ? body["content"] : undefined
      const json = content !== undefined && isObject(content["application/json"]) ? content["application/json"] : undefined
      if (json === undefined || !isObject(json["schema"]) || "example" in json) continue
      const ref = json["schema"]["$ref"]
      const schema = typeof ref === "string" ? schemas[ref.replace("#/components/schemas/", "")] : json["schema"]
      const example = firstExample(schema) ?? examplesOfProperties(schema)
      if (example !== undefined) json["example"] = example
    }
  }
  return spec
}


const isAction = (value: unknown): value is Action => actions.some((action) => action === value)

/**
 * Says in each operation's description who may call it, from its `x-action` (`Security.allowedTo`):
 * the roles of people and of API keys alike; others get 403 `notAllowed`.
 */
export const documentRoles = (spec: Json): Json => {
  const paths = isObject(spec["paths"]) ? spec["paths"] : {}
  for (const item of Object.values(paths)) {
    if (!isObject(item)) continue
    for (const operation of Object.values(item)) {
      if (!isObject(operation)) continue
      const action = operation["x-action"]
      if (!isAction(action)) continue
      const sentence = `Roles (\`x-roles\`): ${allowedNames(action)} may ${rules[action].covers}, signed in or with an API key of that role; any other role gets 403 \`notAllowed\`.`
      const description = typeof operation["description"] === "string" ? operation["description"] : ""
      operation["description"] = description === "" ? sentence : `${description}\n\n${sentence}`
    }
  }
  return spec
}
