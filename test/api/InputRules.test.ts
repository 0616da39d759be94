/**
 * Rules every input of the contract follows, checked on the schemas
 * themselves so a new field cannot forget them: every string a caller sends
 * passes the text rule (no NUL, no unpaired surrogate) or a stricter pattern,
 * every number has an upper bound, and every array a most-items bound.
 */
import { assert, describe, it } from "@effect/vitest"
import { type SchemaAST } from "effect"
import type { HttpApiEndpoint } from "effect/http-api"
import { Api } from "../../src/api/Api.ts"
import { decimalRange } from "../../src/domain/Rules.ts"
import { isText } from "../../src/domain/Text.ts"

/** Checks stricter than the text rule: a UUID or a pattern of our own (digits, HH:MM, a key's characters). */
const strictString = new Set(["effect/schema/isUUID", "effect/schema/isPattern"])

const checksOf = (ast: SchemaAST.AST): ReadonlyArray<SchemaAST.Check<unknown>> => ast.checks ?? []

const representation = (check: SchemaAST.Check<unknown>): string | undefined => {
  const annotations = check.annotations
  const value = annotations?.["representation"]
  return typeof value === "object" && value !== null && "id" in value && typeof value.id === "string" ? value.id : undefined
}

/** Every string and array node reachable from `ast`, with where it is. */
const inputsOf = (ast: SchemaAST.AST, where: string, seen = new Set<SchemaAST.AST>()): Array<[string, SchemaAST.AST]> => {
  if (seen.has(ast)) return []
  seen.add(ast)
  const found: Array<[string, SchemaAST.AST]> = []
  switch (ast._tag) {
    case "String":
    case "Number":
      found.push([where, ast])
      break
    case "Objects":
      for (const field of ast.propertySignatures) found.push(...inputsOf(field.type, `${where}.${String(field.name)}`, seen))
      for (const index of ast.indexSignatures) found.push(...inputsOf(index.type, `${where}[key]`, seen))
      break
    case "Arrays":
      found.push([where, ast])
      ast.elements.forEach((element, i) => found.push(...inputsOf(element, `${where}[${i}]`, seen)))
      for (const rest of ast.rest) found.push(...inputsOf(rest, `${where}[]`, seen))
      break
    case "Union":
      for (const member of ast.types) found.push(...inputsOf(member, where, seen))
      break
    case "Suspend":
      found.push(...inputsOf(ast.thunk(), where, seen))
      break
    case "Declaration":
      for (const parameter of ast.typeParameters) found.push(...inputsOf(parameter, where, seen))
      break
  }
  for (const link of ast.encoding ?? []) found.push(...inputsOf(link.to, where, seen))
  return found
}

const endpoints: ReadonlyArray<HttpApiEndpoint.Top> = Object.values(Api.groups).flatMap((group) => Object.values(group.endpoints))

describe("input rules", () => {
  const inputs = endpoints.flatMap((endpoint) => {
    const name = `${endpoint.method} ${endpoint.path}`
    const slots: Array<[string, SchemaAST.AST]> = []
    if (endpoint.params !== undefined) slots.push([`${name} path`, endpoint.params.ast])
    if (endpoint.query !== undefined) slots.push([`${name} query`, endpoint.query.ast])
    if (endpoint.headers !== undefined) slots.push([`${name} header`, endpoint.headers.ast])
    for (const { schemas } of endpoint.payload.values()) for (const schema of schemas) slots.push([`${name} body`, schema.ast])
    return slots.flatMap(([where, ast]) => inputsOf(ast, where))
  })

  it("finds the inputs it checks", () => {
    assert.isAbove(inputs.filter(([, ast]) => ast._tag === "String").length, 50)
    assert.isAbove(inputs.filter(([, ast]) => ast._tag === "Arrays").length, 8)
  })

  it("every string input passes the text rule or a stricter pattern", () => {
    const loose = inputs.filter(([, ast]) =>
      ast._tag === "String" &&
      !checksOf(ast).some((check) =>
        check.annotations?.expected === isText.annotations?.expected || strictString.has(representation(check) ?? "")
      )
    ).map(([where]) => where)
    assert.deepStrictEqual(loose, [])
  })

  it("every number input has an upper bound (a column holds it, and no rule needs more)", () => {
    const upper = new Set(["effect/schema/isBetween", "effect/schema/isLessThanOrEqualTo", "effect/schema/isLessThan"])
    const unbounded = inputs.filter(([, ast]) =>
      ast._tag === "Number" && !checksOf(ast).some((check) => upper.has(representation(check) ?? ""))
    ).map(([where]) => where)
    assert.deepStrictEqual(unbounded, [])
  })

  it("every array input has a most-items bound", () => {
    const unbounded = inputs.filter(([, ast]) =>
      ast._tag === "Arrays" && !checksOf(ast).some((check) => representation(check) === "effect/schema/isMaxLength")
    ).map(([where]) => where)
    assert.deepStrictEqual(unbounded, [])
  })
})

describe("decimalRange", () => {
  it("matches exactly the numbers in range, without leading zeros", () => {
    for (const [minimum, maximum] of [[0, 60], [1, 200], [1, 168], [0, 9], [1, 5], [0, 1000]] as const) {
      const pattern = new RegExp(decimalRange(minimum, maximum), "u")
      for (let n = 0; n <= 1200; n++) assert.strictEqual(pattern.test(String(n)), n >= minimum && n <= maximum, `${n} in ${minimum}..${maximum}`)
      for (const other of ["", "01", "-1", "1.0", " 1", "1e2", "00"]) assert.isFalse(pattern.test(other), other)
    }
  })
})
