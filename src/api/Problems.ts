/**
 * Schema problems in words, each named by where it is in the request
 * (`body.steps[0].input.text: Expected ...`): one formatter for the request
 * middleware and for inputs checked deeper down (a workflow step's command input).
 *
 * @since 1.0.0
 */
import { SchemaIssue } from "effect"

const formatIssues = SchemaIssue.makeFormatterStandardSchemaV1()

/** Every problem of `issue`, prefixed by `where` (e.g. `body`, `query`). */
export const namedProblems = (where: string, issue: SchemaIssue.Issue): ReadonlyArray<string> =>
  formatIssues(issue).issues.map((problem) => {
    const path = (problem.path ?? []).map((segment) =>
      String(typeof segment === "object" && segment !== null && "key" in segment ? segment.key : segment)
    )
    return [where, ...path].join(".") + `: ${problem.message}`
  })
