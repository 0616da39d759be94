/**
 * The approvals queue's keyboard shortcuts and live length counters, served
 * as `/dashboard/assets/approvals.js` (the page works without it). Kept as a
 * string here so the bundled service carries it.
 */
export const approvalsScript = String.raw`(() => {
  const rows = () => Array.from(document.querySelectorAll("tr.approval"))
  const current = () => document.activeElement && document.activeElement.closest ? document.activeElement.closest("tr.approval") : null
  const focusRow = (row) => { if (row) { row.focus(); row.scrollIntoView({ block: "nearest" }) } }
  const press = (row, action) => { const button = row && row.querySelector("button[data-action=" + action + "]"); if (button) button.click() }
  document.addEventListener("keydown", (event) => {
    if (event.metaKey || event.ctrlKey || event.altKey) return
    const target = event.target
    if (target && target.closest && target.closest("input, textarea, select, summary")) {
      if (event.key === "Escape") focusRow(target.closest("tr.approval"))
      return
    }
    const all = rows()
    if (all.length === 0) return
    const row = current()
    const at = row ? all.indexOf(row) : -1
    switch (event.key) {
      case "j": focusRow(all[Math.min(all.length - 1, at + 1)]); break
      case "k": focusRow(all[Math.max(0, at - 1)]); break
      case "x": { const box = row && row.querySelector("input[type=checkbox]"); if (box) box.checked = !box.checked; break }
      case "e": {
        const details = row && row.querySelector("details")
        if (details) { details.open = true; const area = details.querySelector("textarea"); if (area) area.focus() }
        break
      }
      case "a": press(row, "approve"); break
      case "r": press(row, "reject"); break
      default: return
    }
    event.preventDefault()
  })
  const count = (area) => {
    const counter = document.getElementById(area.id + "-count")
    const limit = Number(area.dataset.limit)
    if (!counter) return
    counter.textContent = area.value.length + " / " + limit
    counter.classList.toggle("over", area.value.length > limit)
  }
  document.addEventListener("input", (event) => { if (event.target && event.target.dataset && event.target.dataset.limit) count(event.target) })
  // After a decision the queue comes back: the first row is where the keyboard goes on.
  if (new URLSearchParams(location.search).has("notice")) focusRow(rows()[0])
})()
`
