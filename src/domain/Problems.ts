/**
 * Schema problems in words, each named by where it is in the request
 * (`body.steps[0].input.text: Expected ...`): one formatter for the request
 * middleware and for inputs checked deeper down (a workflow step's command input).
 */
import { SchemaAST, SchemaIssue } from "effect"

const formatIssues = SchemaIssue.makeFormatterStandardSchemaV1({
  // A field the operation does not take is named as such: most often a misspelling.
  leafHook: (issue) =>
    issue._tag === "UnexpectedKey"
      ? "unknown field: this request does not take it (check the spelling against GET /openapi.json)"
      : SchemaIssue.defaultLeafHook(issue)
})

/** How many problems a message names before it says how many more there are. */
export const PROBLEMS_SHOWN = 5

/** Every problem of `issue`, prefixed by `where` (e.g. `body`, `query`). */
export const namedProblems = (where: string, issue: SchemaIssue.Issue): ReadonlyArray<string> =>
  formatIssues(issue).issues.map((problem) => {
    const path = (problem.path ?? []).map((segment) =>
      String(typeof segment === "object" && segment !== null && "key" in segment ? segment.key : segment)
    )
    return [where, ...path].join(".") + `: ${problem.message}`
  })

// The API decodes a body as the union of its content types' schemas: one member for a JSON body.
const objectOf = (ast: SchemaAST.AST): SchemaAST.Objects | undefined =>
  ast._tag === "Objects" ? ast : ast._tag === "Union" && ast.types.length === 1 ? objectOf(ast.types[0]) : undefined

/**
 * When a body is not a JSON object at all (empty, an array, a string), the
 * problem in words names what to send: "send a JSON object with `name`"
 * rather than the schema's name. Undefined for every other problem.
 */
export const missingObject = (where: string, issue: SchemaIssue.Issue): string | undefined => {
  // A union none of whose members matched the type reports `AnyOf` with no member issues.
  const expected = issue._tag === "InvalidType" || (issue._tag === "AnyOf" && issue.issues.length === 0)
    ? objectOf(issue.ast)
    : undefined
  if (expected === undefined) return undefined
  const required = expected.propertySignatures.filter((field) => !SchemaAST.isOptional(field.type))
  const fields = required.map((field) => `\`${String(field.name)}\``).join(", ")
  return `${where}: send a JSON object${fields === "" ? "" : ` with ${fields}`}; the ${where} was empty or not an object`
}

/**
 * The problems as one message: the first few in full, then how many more, so a
 * body of 100,000 bad items gets an answer of a few hundred bytes, not megabytes.
 */
export const describeProblems = (problems: ReadonlyArray<string>): string => {
  const shown = problems.slice(0, PROBLEMS_SHOWN).join("; ")
  const more = problems.length - PROBLEMS_SHOWN
  return more > 0 ? `${shown}; and ${more} more` : shown
}
