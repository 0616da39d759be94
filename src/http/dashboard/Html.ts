/**
 * The one place HTML is made from values: a tagged template that escapes
 * every interpolated value unless it is already {@link Html}. Pages never
 * concatenate text into markup themselves.
 *
 * @since 1.0.0
 */

/** Markup that is safe to insert as it is. */
export interface Html {
  readonly _tag: "Html"
  readonly value: string
}

/** What may be interpolated: markup, text (escaped), numbers, lists of these; `false`, null and undefined render nothing. */
export type Part = Html | string | number | boolean | null | undefined | ReadonlyArray<Part>

const entities: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;" }

/** Text made safe for element content and quoted attribute values. */
export const escapeText = (text: string): string => text.replace(/[&<>"']/g, (c) => entities[c] ?? c)

const isHtml = (part: Part): part is Html => typeof part === "object" && part !== null && "_tag" in part

const renderPart = (part: Part): string => {
  if (part === null || part === undefined || typeof part === "boolean") return ""
  if (typeof part === "string") return escapeText(part)
  if (typeof part === "number") return String(part)
  if (isHtml(part)) return part.value
  return part.map(renderPart).join("")
}

/** Markup from a template: `html\`<p>${name}</p>\`` escapes `name`. */
export const html = (strings: TemplateStringsArray, ...parts: ReadonlyArray<Part>): Html => {
  let value = strings[0] ?? ""
  for (let i = 0; i < parts.length; i++) value += renderPart(parts[i]) + (strings[i + 1] ?? "")
  return { _tag: "Html", value }
}

/** Markup the service made itself (a QR code's SVG): never user text. */
export const trusted = (value: string): Html => ({ _tag: "Html", value })
