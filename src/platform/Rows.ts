/**
 * Column schemas shared by the repositories: what both PostgreSQL drivers
 * return, decoded into the API's forms.
 */
import { Effect, Schema, SchemaTransformation } from "effect"

/** A `timestamptz` column (a `Date` from the drivers, or its text form) as an ISO 8601 string. */
export const Timestamp = Schema.Union([Schema.Date, Schema.String]).pipe(
  Schema.decodeTo(
    Schema.String,
    SchemaTransformation.transform({
      decode: (value) => (value instanceof Date ? value : new Date(value)).toISOString(),
      encode: (iso) => iso
    })
  )
)

/**
 * A nullable column of `column`'s schema. Null comes first: `Schema.NullOr` tries the column's own
 * schema first, and a null column failed it (a cause built and dropped) before matching null,
 * about 2-4 µs a column; a job row has six such columns.
 */
export const Nullable = <S extends Schema.Top>(column: S) => Schema.Union([Schema.Null, column])

/** A nullable `timestamptz` column. */
export const NullableTimestamp = Nullable(Timestamp)

/** An `int8`/`bigint` or `numeric` column (text or bigint from the drivers) as a JS number. */
export const BigIntNumber = Schema.Union([Schema.Number, Schema.String, Schema.BigInt]).pipe(
  Schema.decodeTo(
    Schema.Number,
    SchemaTransformation.transform({
      decode: (value) => Number(value),
      encode: (n) => n
    })
  )
)

/** A `timestamptz` column as epoch milliseconds, for arithmetic with the Clock. */
export const EpochMillis = Schema.Union([Schema.Date, Schema.String]).pipe(
  Schema.decodeTo(
    Schema.Number,
    SchemaTransformation.transform({
      decode: (value) => (value instanceof Date ? value : new Date(value)).getTime(),
      encode: (ms) => new Date(ms).toISOString()
    })
  )
)

/**
 * The first of a statement's decoded rows, or undefined. As everywhere at the
 * repository boundary, a failure of the database or of decoding our own rows
 * is a defect.
 */
export const firstRow = <A, E, R>(rows: Effect.Effect<ReadonlyArray<A>, E, R>): Effect.Effect<A | undefined, never, R> =>
  rows.pipe(Effect.map((found) => found.at(0)), Effect.orDie)
