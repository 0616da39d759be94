/**
 * Rules on input shapes that several schemas share, each with the JSON Schema
 * it documents as: a filter without one would be left out of the OpenAPI
 * document together with the description and examples that follow it.
 *
 * @since 1.0.0
 */
import { Schema } from "effect"

/** Exactly one of the two optional fields `a` and `b` is given (`oneOf` in the document). */
export const exactlyOneOf = (a: string, b: string) =>
  Schema.makeFilter(
    (input: Readonly<Record<string, unknown>>) =>
      (input[a] === undefined) !== (input[b] === undefined) || `give exactly one of ${a} and ${b}`,
    {
      expected: `exactly one of ${a} and ${b}`,
      toJsonSchema: () => ({ oneOf: [{ required: [a] }, { required: [b] }] })
    }
  )

/**
 * A rule JSON Schema cannot say: the document keeps the schema's other
 * constraints, description and examples, and the description must state the rule.
 */
export const describedOnly = [{}, true] as const
