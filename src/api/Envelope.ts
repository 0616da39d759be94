/**
 * Success bodies start with `ok: true` (the spec's envelope); errors are in `Errors.ts`.
 */
import { Schema } from "effect"

/** A success body: `{ok: true, ...fields}`. */
export const Ok = <const Fields extends Schema.Struct.Fields>(fields: Fields) =>
  Schema.Struct({ ok: Schema.Literal(true), ...fields })

/** The success body that carries nothing but `ok: true`. */
export const OkOnly = Ok({})

/** The formats of records (domain/Formats.ts), for the contract's own schemas. */
export { DateTimeString, Uuid } from "../domain/Formats.ts"
