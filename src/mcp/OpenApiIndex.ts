/**
 * The REST contract cut to an assistant's size: a short index of the
 * operation groups (their operations by method, path and summary) and, per
 * group, an OpenAPI 3.1 document with only that group's paths and the
 * components they reference. The whole document (`GET /openapi.json`) is
 * 700+ KB; the index is a few KB and most groups tens of KB.
 */
import { OpenApi } from "effect/http-api"
import { Api } from "../api/Api.ts"

type Json = null | boolean | number | string | ReadonlyArray<Json> | { readonly [key: string]: Json }

interface Operation {
  readonly method: string
  readonly path: string
  readonly summary: string
}

/** One operation group (an OpenAPI tag): its resource and its operations. */
export interface Group {
  readonly name: string
  readonly slug: string
  readonly uri: string
  readonly description: string
  readonly operations: ReadonlyArray<Operation>
  /** The group's own OpenAPI document. */
  readonly document: () => string
}

const isObject = (value: Json | undefined): value is { readonly [key: string]: Json } =>
  typeof value === "object" && value !== null && !Array.isArray(value)

const stringAt = (value: Json | undefined, key: string): string | undefined => {
  const found = isObject(value) ? value[key] : undefined
  return typeof found === "string" ? found : undefined
}

/** The `#/components/<kind>/<name>` references reachable from `root`, following references into components. */
const referenced = (root: Json, components: { readonly [key: string]: Json }): ReadonlyArray<readonly [string, string]> => {
  const seen = new Set<string>()
  const pending: Array<Json> = [root]
  while (pending.length > 0) {
    const value = pending.pop()
    if (Array.isArray(value)) {
      pending.push(...value)
    } else if (isObject(value)) {
      const ref = stringAt(value, "$ref")
      const match = ref === undefined ? null : /^#\/components\/([^/]+)\/(.+)$/.exec(ref)
      if (match !== null && !seen.has(`${match[1]}/${match[2]}`)) {
        seen.add(`${match[1]}/${match[2]}`)
        const kind = components[match[1]]
        if (isObject(kind) && kind[match[2]] !== undefined) pending.push(kind[match[2]])
      }
      pending.push(...Object.values(value))
    }
  }
  return [...seen].map((key) => {
    const slash = key.indexOf("/")
    return [key.slice(0, slash), key.slice(slash + 1)] as const
  })
}

const slugOf = (name: string) => name.toLowerCase().replace(/[^a-z0-9]+/g, "-")

/** Where an assistant reads the index. */
export const indexUri = "outreach://openapi.json"

/** The groups of the contract, in the document's order. */
export const groups = (): ReadonlyArray<Group> => {
  const document: Json = JSON.parse(JSON.stringify(OpenApi.fromApi(Api)))
  if (!isObject(document)) return []
  const paths = isObject(document["paths"]) ? document["paths"] : {}
  const components = isObject(document["components"]) ? document["components"] : {}
  const tags = Array.isArray(document["tags"]) ? document["tags"] : []
  return tags.flatMap((tag) => {
    const name = stringAt(tag, "name")
    if (name === undefined) return []
    const ownPaths = Object.entries(paths).flatMap(([path, item]) => {
      if (!isObject(item)) return []
      const operations = Object.entries(item).filter(([, operation]) => {
        const operationTags = isObject(operation) ? operation["tags"] : undefined
        return Array.isArray(operationTags) && operationTags.includes(name)
      })
      return operations.length === 0 ? [] : [{ path, operations }]
    })
    const slug = slugOf(name)
    return [{
      name,
      slug,
      uri: `outreach://openapi/${slug}`,
      description: stringAt(tag, "description") ?? `The ${name} operations.`,
      operations: ownPaths.flatMap(({ operations, path }) =>
        operations.map(([method, operation]) => ({ method: method.toUpperCase(), path, summary: stringAt(operation, "summary") ?? "" }))
      ),
      document: () => {
        const ownPathItems = Object.fromEntries(ownPaths.map(({ operations, path }) => [path, Object.fromEntries(operations)]))
        const ownComponents: Record<string, Record<string, Json>> = {}
        for (const [kind, key] of referenced(ownPathItems, components)) {
          const all = components[kind]
          const component = isObject(all) ? all[key] : undefined
          if (component !== undefined) ownComponents[kind] = { ...ownComponents[kind], [key]: component }
        }
        return JSON.stringify({
          openapi: document["openapi"],
          info: { title: `Outreach Service API: ${name}`, version: stringAt(document["info"], "version") ?? "1.0.0" },
          servers: document["servers"],
          security: document["security"],
          tags: [tag],
          paths: ownPathItems,
          components: { ...ownComponents, securitySchemes: components["securitySchemes"] ?? {} }
        })
      }
    }]
  })
}

/** The index: what the API is, and each group with its resource and operations. */
export const index = (all: ReadonlyArray<Group>): string =>
  JSON.stringify({
    title: "Outreach Service API",
    about:
      "A JSON REST API over the same services as these tools. Authorization: Bearer svc_... on every request; successful bodies start with ok: true, errors are {ok: false, error: {type, message, next}}. Read a group's resource for its OpenAPI 3.1 document (paths, schemas, examples); GET /openapi.json serves the whole document.",
    groups: all.map((group) => ({
      name: group.name,
      resource: group.uri,
      description: group.description,
      operations: group.operations.map((operation) => `${operation.method} ${operation.path}: ${operation.summary}`)
    }))
  }, null, 1)
