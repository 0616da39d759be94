/**
 * Times in the reader's own time zone: `/dashboard/assets/local-times.js`
 * rewrites every `<time data-local>` (written in UTC by the server, see
 * `Layout.localTime`) in the browser's zone, naming the zone; the ISO time
 * stays in the element's title. Without scripts the page keeps UTC. Kept as a
 * string here so the bundled service carries it.
 */
import { swappedEvent } from "./LiveListsScript.ts"

export const localTimesScript = String.raw`(() => {
  // dateStyle and timeStyle cannot be combined with timeZoneName: the fields one by one.
  const format = new Intl.DateTimeFormat(undefined, { year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", timeZoneName: "short" })
  const localize = () => {
    for (const element of document.querySelectorAll("time[data-local]")) {
      const at = new Date(element.getAttribute("datetime") || "")
      if (!Number.isNaN(at.getTime())) element.textContent = format.format(at)
      element.removeAttribute("data-local")
    }
  }
  localize()
  document.addEventListener("htmx:afterSwap", localize)
  document.addEventListener("${swappedEvent}", localize)
})()
`
