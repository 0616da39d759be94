/**
 * The one place HTML is made from values: a tagged template that escapes
 * every interpolated value unless it is already {@link Html}. Pages never
 * concatenate text into markup themselves.
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

const loopbackHosts = new Set(["127.0.0.1", "localhost", "[::1]"])

/**
 * Where a link built from an address may point, or `undefined` for no link: an `https://`
 * address as it is, and the service's own pages in development (`http://` on this machine) as
 * a path on this server. Anything else (`javascript:`, `data:`, plain `http://` elsewhere,
 * text that is no address) is never a link: it is shown as text.
 */
export const safeHref = (address: string): string | undefined => {
  if (!URL.canParse(address)) return undefined
  const url = new URL(address)
  if (url.protocol === "https:" && url.username === "" && url.password === "") return url.href
  if (url.protocol === "http:" && loopbackHosts.has(url.hostname)) return `${url.pathname}${url.search}${url.hash}`
  return undefined
}

/** A link to an address that passes {@link safeHref}, else the address as text. */
export const externalLink = (address: string, label: Part = address, attributes: Html = html``): Html => {
  const href = safeHref(address)
  return href === undefined ? html`<span class="address">${label}</span>` : html`<a href="${href}" rel="noreferrer noopener"${attributes}>${label}</a>`
}
