/**
 * Lists that update without a reload, served as `/dashboard/assets/live.js`:
 * when the live stream says the workspace changed (`Live.ts`), the page's
 * list marked `data-live-list` (approvals, jobs) is fetched again and put in
 * place, unless the person is working in it (focus in it, as on a row the
 * keyboard is on, an edited text, rows chosen for a bulk decision): then it
 * waits for the next change. Also once
 * each time the stream connects, for what changed before it did. Kept as a
 * string here so the bundled service carries it.
 */
import { changedEvent } from "./Live.ts"

/** Dispatched on a list put in place, for the page's other scripts (`LocalTimes.ts`). */
export const swappedEvent = "dashboard:swapped"

export const liveListsScript = String.raw`(() => {
  const busy = (list) => {
    const active = document.activeElement
    // Focus inside it (a field, or a row the keyboard is on) is someone at work there.
    if (active && active !== document.body && list.contains(active)) return true
    return Array.from(list.querySelectorAll("textarea, input[type=text]")).some((field) => field.value !== field.defaultValue) ||
      Array.from(list.querySelectorAll("input[type=checkbox]")).some((box) => box.checked)
  }
  let fetching = false
  // A change told while a fetch is under way is fetched again after it: that fetch may predate it.
  let again = false
  const refresh = async () => {
    const list = document.querySelector("[data-live-list]")
    if (!list || !list.id || busy(list)) return
    if (fetching) { again = true; return }
    fetching = true
    again = false
    try {
      const response = await fetch(location.href, { headers: { accept: "text/html" }, credentials: "same-origin" })
      if (!response.ok) return
      const page = new DOMParser().parseFromString(await response.text(), "text/html")
      const fresh = page.getElementById(list.id)
      if (fresh && !busy(list) && fresh.innerHTML !== list.innerHTML) {
        const placed = document.importNode(fresh, true)
        list.replaceWith(placed)
        // What dresses new content (times in the reader's zone) does it again.
        placed.dispatchEvent(new CustomEvent("${swappedEvent}", { bubbles: true }))
      }
    } finally {
      fetching = false
      if (again) refresh()
    }
  }
  document.addEventListener("${changedEvent}", refresh)
  // What changed between the page's making and the stream's (re)connection is fetched once then.
  // The page says whether it is live (html[data-live]): for people's tools and the tests.
  document.addEventListener("htmx:sse:after:connection", () => {
    document.documentElement.dataset.live = "connected"
    refresh()
  })
  document.addEventListener("htmx:sse:error", () => { document.documentElement.dataset.live = "lost" })
})()
`
