/**
 * Writes the documentation generated from code: `docs/limits.md` (the tier
 * table) and, in `docs/architecture.md`, the drawing of the import rule
 * (`test/architecture/Layers.ts`). `npm run docs`; tests fail when the
 * checked-in copies are stale.
 */
import { readFileSync, writeFileSync } from "node:fs"
import { catalogue } from "../src/domain/Commands.ts"
import { tierTable, tiers } from "../src/domain/Limits.ts"
import { rampPercentByDay, WARMUP_DAYS } from "../src/domain/Warmup.ts"
import { mermaid } from "../test/architecture/Layers.ts"

export const renderLimits = (): string => {
  const lines = [
    "# Limits, tiers and warm-up",
    "",
    "Generated from `src/domain/Limits.ts` and `src/domain/Warmup.ts` by `npm run docs`; do not edit by hand.",
    "",
    "Effective limit = floor(min(user limit, tier ceiling) x warm-up factor x health factor).",
    "Health factors: green 1, yellow 0.5, red 0 (the account is stopped). `PUT /limits` values above the",
    "ceiling are capped; lower values are always kept. `isEnabled: false` switches a category and period off.",
    "Budgets are counted when a job runs; days, weeks (from Monday) and months are local to the account's zone.",
    "",
    "## Defaults / ceilings per tier",
    "",
    `| category | period | ${tiers.join(" | ")} | why |`,
    `| --- | --- | ${tiers.map(() => "---").join(" | ")} | --- |`,
    ...tierTable.map((row) =>
      `| ${row.category} | ${row.period} | ${
        tiers.map((tier) => `${row.bounds[tier].default} / ${row.bounds[tier].ceiling}`).join(" | ")
      } | ${row.reason} |`
    ),
    "",
    `## Warm-up (${WARMUP_DAYS} days)`,
    "",
    `| day | ${rampPercentByDay.map((_, i) => String(i + 1)).join(" | ")} |`,
    `| --- | ${rampPercentByDay.map(() => "---").join(" | ")} |`,
    `| % of the limit | ${rampPercentByDay.join(" | ")} |`,
    "",
    "A restriction by the network: after a person resumes the account, 7 days of reads only, then the ramp",
    "restarts at the highest day whose factor is at most half the factor reached when restricted.",
    "",
    "## Which command uses which category",
    "",
    "| command | category |",
    "| --- | --- |",
    ...catalogue.flatMap((entry) => entry.category === null ? [] : [`| ${entry.name} | ${entry.category} |`]),
    ...catalogue.flatMap((entry) => entry.inMailCategory === null ? [] : [`| ${entry.name} as an InMail | ${entry.inMailCategory} |`]),
    "",
    "Other commands use no budget. Reads never wait for approval or working hours, but do use their budgets.",
    ""
  ]
  return lines.join("\n")
}

const layersStart = "<!-- layers: generated from test/architecture/Layers.ts by `npm run docs` -->"
const layersEnd = "<!-- /layers -->"

/** `doc` with the drawing of the import rule between its markers. */
export const withLayers = (doc: string): string => {
  const start = doc.indexOf(layersStart)
  const end = doc.indexOf(layersEnd)
  if (start === -1 || end < start) throw new Error("docs/architecture.md has lost the markers of the layers drawing")
  return `${doc.slice(0, start + layersStart.length)}\n${mermaid()}\n${doc.slice(end)}`
}

if (import.meta.main) {
  const limits = new URL("../docs/limits.md", import.meta.url)
  writeFileSync(limits, renderLimits())
  console.log(`wrote ${limits.pathname}`)
  const architecture = new URL("../docs/architecture.md", import.meta.url)
  writeFileSync(architecture, withLayers(readFileSync(architecture, "utf8")))
  console.log(`wrote ${architecture.pathname}`)
}
