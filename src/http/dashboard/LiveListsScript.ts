/**
 * Lists that update without a reload, served as `/dashboard/assets/live.js`:
 * when the live stream says the workspace changed (`Live.ts`), the page's
 * list marked `data-live-list` (approvals, jobs) is fetched again and put in
 * place, unless the person is working in it (typing, an edited text, rows
 * chosen for a bulk decision): then it waits for the next change. Also once
 * each time the stream connects, for what changed before it did. Kept as a
 * string here so the bundled service carries it.
 */
import { changedEvent } from "./Live.ts"

export const liveListsScript = String.raw`(() => {
  const busy = (list) => {
    const active = document.activeElement
    if (active && list.contains(active) && active.matches("input, textarea, select")) return true
    return Array.from(list.querySelectorAll("textarea, input[type=text]")).some((field) => field.value !== field.defaultValue) ||
      Array.from(list.querySelectorAll("input[type=checkbox]")).some((box) => box.checked)
  }
  let fetching = false
  const refresh = async () => {
    const list = document.querySelector("[data-live-list]")
    if (!list || !list.id || fetching || busy(list)) return
    fetching = true
    try {
      const response = await fetch(location.href, { headers: { accept: "text/html" }, credentials: "same-origin" })
      if (!response.ok) return
      const page = new DOMParser().parseFromString(await response.text(), "text/html")
      const fresh = page.getElementById(list.id)
      if (fresh && !busy(list)) list.replaceWith(document.importNode(fresh, true))
    } finally {
      fetching = false
    }
  }
  document.addEventListener("${changedEvent}", refresh)
  // What changed between the page's making and the stream's (re)connection is fetched once then.
  document.addEventListener("htmx:sse:after:connection", refresh)
})()
`
