/**
 * Rules on input shapes that several schemas share, each with the JSON Schema
 * it documents as: a filter without one would be left out of the OpenAPI
 * document together with the description and examples that follow it.
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

/**
 * A regular expression source matching exactly the decimal numbers from
 * `minimum` (0 to 9) to `maximum`, without leading zeros: the document's
 * pattern for an integer sent as a query string, so the range is stated where
 * a client reads it. Built digit by digit: every number shorter than
 * `maximum`, then those as long that stay at or below it.
 */
export const decimalRange = (minimum: number, maximum: number): string => {
  const max = String(maximum)
  const alternatives: Array<string> = []
  for (let length = 1; length < max.length; length++) {
    alternatives.push(length === 1 ? `[${minimum}-9]` : `[1-9]\\d{${length - 1}}`)
  }
  for (let i = 0; i < max.length; i++) {
    const lowest = i === 0 ? (max.length === 1 ? minimum : 1) : 0
    const digit = Number(max[i])
    const rest = max.length - i - 1
    if (digit > lowest) alternatives.push(`${max.slice(0, i)}[${lowest}-${digit - 1}]${rest > 0 ? `\\d{${rest}}` : ""}`)
    if (i === 0 && digit < lowest) return `^(?!)$`
  }
  alternatives.push(max)
  return `^(?:${alternatives.join("|")})$`
}
