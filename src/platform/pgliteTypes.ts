/**
 * How PGlite values cross into and out of JavaScript, made to match
 * `@effect/sql-pg` so code written against PostgreSQL behaves the same on
 * embedded PGlite.
 *
 * `@effect/sql-pg` decodes the binary wire format; PGlite hands us PostgreSQL's
 * text output. The parsers here turn that text into the same JavaScript values
 * pg produces: `int8` as `bigint`, `timestamp(tz)` as `Date` (truncated to
 * milliseconds, infinity as an invalid `Date`), `date` as `YYYY-MM-DD` text,
 * `time` as `bigint` microseconds, `float4` rounded to single precision.
 * PGlite's own defaults already agree for text, int2/int4, float8, numeric
 * (text), bool, json/jsonb, uuid, bytea and arrays of all of them. `interval`
 * and `timetz` stay PostgreSQL text (pg decodes `interval` to an object), and
 * multi-dimensional arrays or ones with other lower bounds, which pg refuses to
 * decode, come back as (nested) arrays.
 *
 * Parameters are typed the way pg infers them from the JavaScript value, so the
 * same statement resolves to the same PostgreSQL types (and fails the same
 * way) on both.
 */
import type { ParserOptions, SerializerOptions } from "@electric-sql/pglite"
import { PgTypes } from "@effect/sql-pg"

const OID = PgTypes.OID

/** Microseconds between 1970-01-01 and PostgreSQL's epoch, 2000-01-01. */
const PG_EPOCH_MICROS = 946_684_800_000_000
const PG_EPOCH_MS = 946_684_800_000

// PostgreSQL's ISO DateStyle output, e.g. `2024-01-02 03:04:05.123456+05:30` or `0044-03-15 12:00:00 BC`.
const timestampText =
  /^(\d{4,})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,6}))?(?:([+-])(\d{2})(?::?(\d{2}))?(?::?(\d{2}))?)?( BC)?$/

const fractionMicros = (fraction: string | undefined): number =>
  fraction === undefined ? 0 : Number(fraction.padEnd(6, "0"))

/**
 * Parses PostgreSQL's text form of a `timestamp` or `timestamptz`. A
 * `timestamp` (no zone) maps its wall-clock fields to UTC, as pg does.
 */
export const parseTimestamp = (text: string): Date => {
  const match = timestampText.exec(text)
  if (match === null) return new Date(Number.NaN) // infinity, -infinity
  const [, year, month, day, hour, minute, second, fraction, sign, offsetH, offsetM, offsetS, bc] = match
  const utc = new Date(0)
  // setUTCFullYear, unlike Date.UTC, does not map years 0-99 to 1900-1999.
  utc.setUTCFullYear(bc === undefined ? Number(year) : 1 - Number(year), Number(month) - 1, Number(day))
  utc.setUTCHours(Number(hour), Number(minute), Number(second), 0)
  const offsetSeconds = sign === undefined
    ? 0
    : (sign === "-" ? -1 : 1) * (Number(offsetH) * 3600 + Number(offsetM ?? 0) * 60 + Number(offsetS ?? 0))
  const micros = (utc.getTime() - offsetSeconds * 1000) * 1000 + fractionMicros(fraction) - PG_EPOCH_MICROS
  // pg truncates to milliseconds toward the PostgreSQL epoch; do the same.
  return new Date((micros - micros % 1000) / 1000 + PG_EPOCH_MS)
}

const timeText = /^(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,6}))?$/

/** Parses PostgreSQL's text form of a `time` into microseconds since midnight, as pg does. */
export const parseTime = (text: string): bigint => {
  const match = timeText.exec(text)
  if (match === null) throw new Error(`Unexpected time value: ${text}`)
  const [, hour, minute, second, fraction] = match
  return BigInt((Number(hour) * 3600 + Number(minute) * 60 + Number(second)) * 1_000_000 + fractionMicros(fraction))
}

/**
 * Result parsers by type OID, merged over PGlite's defaults. PGlite builds its
 * array parsers from the element parsers, so arrays follow these too.
 */
export const parsers: ParserOptions = {
  [OID.int8]: (text: string) => BigInt(text),
  [OID.float4]: (text: string) => Math.fround(Number(text)),
  [OID.date]: (text: string) => text,
  [OID.time]: parseTime,
  [OID.timestamp]: parseTimestamp,
  [OID.timestamptz]: parseTimestamp
}

/**
 * Parameter serializers by type OID, merged over PGlite's defaults. A string
 * bound untyped to a `bytea` column is PostgreSQL's own text form, as with pg.
 */
export const serializers: SerializerOptions = {
  [OID.bytea]: (value: unknown) =>
    typeof value === "string"
      ? value
      : value instanceof Uint8Array
      ? `\\x${Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString("hex")}`
      : String(value)
}

/** Statement parameters ready for PGlite: values and the type OID of each (0 lets PostgreSQL infer it). */
export interface BoundParameters {
  readonly values: Array<unknown>
  readonly types: Array<number>
}

interface Typed {
  readonly oid: number
  readonly value: unknown
}

const INT32_MIN = -2_147_483_648
const INT32_MAX = 2_147_483_647

const json = (value: unknown): string => {
  const text = JSON.stringify(value)
  if (text === undefined) throw new Error("Value cannot be serialised as JSON")
  return text
}

/** The type pg's client gives a scalar JavaScript value (`PgConnection.inferScalar`). */
const typeScalar = (value: unknown): Typed => {
  if (PgTypes.isParameter(value)) {
    // PGlite binds text: JSON goes over as its text, everything else through PGlite's serializer for the OID.
    return value.oid === OID.json || value.oid === OID.jsonb
      ? { oid: value.oid, value: value.value === null ? null : json(value.value) }
      : { oid: value.oid, value: value.value }
  }
  if (value === null || value === undefined) return { oid: 0, value: null }
  switch (typeof value) {
    case "boolean":
      return { oid: OID.bool, value }
    case "bigint":
      return { oid: OID.int8, value }
    case "number":
      if (Number.isInteger(value)) {
        if (value >= INT32_MIN && value <= INT32_MAX) return { oid: OID.int4, value }
        if (Number.isSafeInteger(value)) return { oid: OID.int8, value }
      }
      return { oid: OID.float8, value }
    case "string":
      // Untyped, so PostgreSQL infers the type from the statement, as with pg.
      return { oid: 0, value }
  }
  if (value instanceof Date) return { oid: OID.timestamptz, value }
  if (value instanceof Uint8Array) return { oid: OID.bytea, value }
  if (value instanceof Int8Array) {
    return { oid: OID.bytea, value: new Uint8Array(value.buffer, value.byteOffset, value.byteLength) }
  }
  throw new Error(`Cannot infer a PostgreSQL type for ${String(value)}`)
}

/** The type pg's client gives an array (`PgConnection.inferParameter`): one-dimensional, one element type. */
const typeArray = (array: ReadonlyArray<unknown>): Typed => {
  if (array.length === 0) return { oid: 0, value: "{}" }
  let elementOid: number | undefined
  const values = array.map((element) => {
    if (Array.isArray(element)) throw new Error("Nested array parameters are not supported")
    const typed = typeScalar(element)
    if (typed.value === null) return null
    const oid = typed.oid === 0 ? OID.text : typed.oid
    if (elementOid === undefined) elementOid = oid
    else if (elementOid !== oid) throw new Error("Array parameter elements must have the same inferred OID")
    return typed.value
  })
  if (elementOid === undefined) throw new Error("Cannot infer the type of an array containing only null values")
  const arrayOid = PgTypes.arrayOidFor(elementOid)
  if (arrayOid === undefined) throw new Error(`No array type known for element OID ${elementOid}`)
  return { oid: arrayOid, value: values }
}

/**
 * Types each parameter as `@effect/sql-pg` would. Throws on a value pg cannot
 * bind either (a plain object, a nested array, ...): use `PgTypes.jsonb(value)`
 * or the client's `json` helper for JSON, or bind `JSON.stringify(value)`.
 */
export const bindParameters = (params: ReadonlyArray<unknown>): BoundParameters => {
  const values: Array<unknown> = []
  const types: Array<number> = []
  for (const param of params) {
    const typed = Array.isArray(param) ? typeArray(param) : typeScalar(param)
    values.push(typed.value)
    types.push(typed.oid)
  }
  return { values, types }
}
