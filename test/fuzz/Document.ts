/**
 * The served OpenAPI document as the fuzz suite reads it: every operation
 * with its parameters, body and documented responses; a validator for any
 * schema in it (Ajv, JSON Schema 2020-12); and valid values drawn from a
 * schema (json-schema-faker, seeded).
 */
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js"
import formats from "ajv-formats"
import { generateSync } from "json-schema-faker"

type Json = Record<string, unknown>

const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value)

/** A query parameter of an operation. */
export interface QueryParameter {
  readonly name: string
  readonly required: boolean
  readonly schema: Json
}

/** One operation of the document. */
export interface Operation {
  readonly method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE"
  /** The path template, `/v1/accounts/{id}`. */
  readonly path: string
  readonly query: ReadonlyArray<QueryParameter>
  readonly body: Json | undefined
  readonly bodyRequired: boolean
  /** Documented statuses, each with its JSON body schema when it has one. */
  readonly responses: ReadonlyMap<number, Json | undefined>
  /** Needs a credential (the document's `security`). */
  readonly secured: boolean
}

const methods = { get: "GET", post: "POST", put: "PUT", patch: "PATCH", delete: "DELETE" } as const

const jsonSchemaOf = (content: unknown): Json | undefined => {
  if (!isObject(content)) return undefined
  const json = content["application/json"]
  return isObject(json) && isObject(json["schema"]) ? json["schema"] : undefined
}

/** The document read into operations, validators and generators. */
export const readDocument = (doc: Json) => {
  const components = isObject(doc["components"]) ? doc["components"] : {}
  const ajv = new Ajv2020({ strict: false, allErrors: false })
  formats.default(ajv)
  ajv.addSchema({ $id: "doc", components })
  const compiled = new Map<Json, ValidateFunction>()

  /** Whether `value` matches `schema` (a schema of the document, its refs resolved against it). */
  const matches = (schema: Json, value: unknown): boolean => {
    let validate = compiled.get(schema)
    if (validate === undefined) {
      validate = ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll("\"#/components/", "\"doc#/components/")))
      compiled.set(schema, validate)
    }
    return validate(value)
  }

  /** A value that the document allows for `schema`, drawn with `seed`. */
  const sample = (schema: Json, seed: number): unknown =>
    generateSync({ ...schema, components }, { seed, maxItems: 3, maxLength: 40, refDepthMax: 3, optionalsProbability: 0.5 })

  const operations: Array<Operation> = []
  const paths = isObject(doc["paths"]) ? doc["paths"] : {}
  for (const [path, item] of Object.entries(paths)) {
    if (!isObject(item)) continue
    for (const [method, name] of Object.entries(methods)) {
      const operation = item[method]
      if (!isObject(operation)) continue
      const parameters = Array.isArray(operation["parameters"]) ? operation["parameters"].filter(isObject) : []
      const requestBody = isObject(operation["requestBody"]) ? operation["requestBody"] : undefined
      const responses = new Map<number, Json | undefined>()
      for (const [status, response] of Object.entries(isObject(operation["responses"]) ? operation["responses"] : {})) {
        responses.set(Number(status), isObject(response) ? jsonSchemaOf(response["content"]) : undefined)
      }
      operations.push({
        method: name,
        path,
        query: parameters.filter((p) => p["in"] === "query").map((p) => ({
          name: String(p["name"]),
          required: p["required"] === true,
          schema: isObject(p["schema"]) ? p["schema"] : {}
        })),
        body: requestBody === undefined ? undefined : jsonSchemaOf(requestBody["content"]),
        bodyRequired: requestBody?.["required"] === true,
        responses,
        secured: Array.isArray(operation["security"]) && operation["security"].length > 0
      })
    }
  }
  return { operations, matches, sample }
}

export type Document = ReturnType<typeof readDocument>
