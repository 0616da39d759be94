/**
 * The one rule every string a caller sends must pass: no NUL characters and
 * no unpaired UTF-16 surrogates. PostgreSQL stores neither (`text` refuses NUL,
 * `jsonb` refuses an escaped lone surrogate), so such a string would otherwise
 * fail deep in the database as a 500; here it is a 400 naming the field.
 */
import { Schema } from "effect"

/**
 * Code points other than NUL and the surrogates: with the `u` flag a well-formed
 * pair is one code point above U+FFFF, so only an unpaired surrogate is left to
 * match the range. Exported as the JSON Schema `pattern` of every text input.
 */
const wellFormedText = /^[^\u0000\uD800-\uDFFF]*$/u

/** The check itself, for strings that carry other checks too. */
export const isText = Schema.isPattern(wellFormedText, {
  expected: "text without NUL characters or unpaired surrogates",
  message: "must not contain NUL characters (\\u0000) or unpaired UTF-16 surrogates"
})

/** A string input: what `Schema.String` is for output, this is for input. */
export const Text = Schema.String.check(isText)
