/**
 * The forecast on the dashboard's seat page: a timeline by day of the writes
 * expected per category, each against the day's budget, and when the queue
 * is expected to be empty.
 */
import type { Forecast } from "../api/ForecastApi.ts"
import { html, type Html } from "./Html.ts"
import { when } from "./Layout.ts"

/** Days the seat page draws. */
export const TIMELINE_DAYS = 14

const dayName = (date: string) => new Date(`${date}T00:00:00Z`).toLocaleDateString("en-GB", { weekday: "short", timeZone: "UTC" })

/** One category's writes on a day against its budget: a meter, and the figures in words. */
const load = (category: string, writes: number, budget: number) =>
  html`<li><span class="muted">${category.replace("_", " ")}</span> <meter min="0" max="${Math.max(budget, writes, 1)}" value="${writes}" aria-label="${category.replace("_", " ")}: ${writes} of ${budget}"></meter> ${writes} of ${budget}</li>`

/** The seat's forecast: when its queue empties and, day by day, what goes out per category. */
export const forecastTimeline = (forecast: Forecast): Html => {
  const shown = forecast.days.slice(0, TIMELINE_DAYS)
  const empties = forecast.total === 0 && forecast.assumed.length === 0
    ? "Nothing is queued."
    : forecast.emptyAt === null
    ? "Some queued writes wait for something with no end the forecast can see (a pause, a budget of 0)."
    : `The queue is expected to be empty by ${when(forecast.emptyAt)}.`
  const approvals = forecast.awaitingApproval.length === 0
    ? ""
    : html`<p class="muted">${forecast.awaitingApproval.length} more await approval; ${forecast.awaitingApproval[0].summary}.</p>`
  const rows = shown.map((day) =>
    html`<tr><th scope="row">${dayName(day.date)} ${day.date}</th><td><ul class="plain">${
      day.categories.map(({ budget, category, writes }) => load(category, writes, budget))
    }</ul></td></tr>`
  )
  return html`<section aria-labelledby="forecast-${forecast.accountId}" class="forecast">
<h3 id="forecast-${forecast.accountId}">Forecast</h3>
<p>${empties}</p>${approvals}${
    shown.length === 0 ? "" : html`<div class="table-wrap"><table><caption class="muted">Writes expected per day (${forecast.timezone}), against each day's budget</caption><thead><tr><th scope="col">Day</th><th scope="col">Writes by category</th></tr></thead><tbody>${rows}</tbody></table></div>`
  }${
    forecast.days.length > TIMELINE_DAYS ? html`<p class="muted">And ${forecast.days.length - TIMELINE_DAYS} more days.</p>` : ""
  }<p class="muted">Pacing taken at its expected ${forecast.pacingGapSeconds} s; replies, acceptances and pauses to come are not foreseen.</p>
</section>`
}
