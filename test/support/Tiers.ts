/**
 * The test tiers, by file, as the vitest projects of `vitest.config.ts`:
 *
 * - `fast` (`npm test`): pure, architecture and in-memory tests (routes on fakes through
 *   `HttpApiTest`); no database, no child process. About a minute.
 * - `db` (`npm run test:db`): the storage tests, on embedded PGlite or on the PostgreSQL server
 *   `DATABASE_URL` names, each database a copy of one migrated template (`DatabaseTemplates.ts`).
 *   Every test file that no other tier lists: a new file runs here until it is listed elsewhere.
 * - `slow` (`npm run test:slow`): processes, the browser, the README, the bundle and the
 *   10,000-account memory test.
 * - `chaos` (`npm run chaos`, `vitest.chaos.config.ts`): kill -9, failover, PostgreSQL restarts.
 *
 * `test/architecture/Tiers.test.ts` checks that every test file is in exactly one tier.
 */
import { configDefaults } from "vitest/config"

/** Every test file. */
export const all = "test/**/*.test.ts"

/** `npm test`: files that need neither a database nor a process of their own. */
export const fast: ReadonlyArray<string> = [
  "test/accounts/AccountRow.test.ts",
  "test/accounts/AccountsMemory.test.ts",
  "test/accounts/Lifecycle.test.ts",
  "test/activity/ActivityMemory.test.ts",
  "test/api/**/*.test.ts",
  "test/approvals/ApprovalsMemory.test.ts",
  "test/architecture/**/*.test.ts",
  "test/dashboard/Html.test.ts",
  "test/dashboard/WorkflowWords.test.ts",
  "test/docs/Contract.test.ts",
  "test/docs/Docs.test.ts",
  "test/domain/**/*.test.ts",
  "test/http/ActivityRoutes.test.ts",
  "test/http/AccountsRoutes.test.ts",
  "test/http/ApprovalsRoutes.test.ts",
  "test/http/AutomationsRoutes.test.ts",
  "test/http/ForecastRoutes.test.ts",
  "test/http/IdentityRoutes.test.ts",
  "test/http/InboxRoutes.test.ts",
  "test/http/JobsRoutes.test.ts",
  "test/http/KeysRoutes.test.ts",
  "test/http/ServiceErrors.test.ts",
  "test/http/WebhooksRoutes.test.ts",
  "test/http/NotServing.test.ts",
  "test/http/OnFirstUse.test.ts",
  "test/http/PeopleRoutes.test.ts",
  "test/http/SandboxClockRoutes.test.ts",
  "test/http/SandboxRoutes.test.ts",
  "test/http/SystemRoutes.test.ts",
  "test/http/WorkflowsRoutes.test.ts",
  "test/inbox/Cadence.test.ts",
  "test/inbox/InboxMemory.test.ts",
  "test/inbox/ReportsMemory.test.ts",
  "test/jobs/ForecastsMemory.test.ts",
  "test/jobs/ForecastsOnAccounts.test.ts",
  "test/jobs/JobsContract.test.ts",
  "test/jobs/JobsMemory.test.ts",
  "test/jobs/Plan.test.ts",
  "test/jobs/WriteTarget.test.ts",
  "test/people/MessagesMemory.test.ts",
  "test/people/PeopleMemory.test.ts",
  "test/workflows/AutomationsMemory.test.ts",
  "test/workflows/WorkflowsMemory.test.ts",
  "test/keys/KeysMemory.test.ts",
  "test/mcp/Document.test.ts",
  "test/team/**/*.test.ts",
  "test/platform/AppConfig.test.ts",
  "test/platform/HealthMemory.test.ts",
  "test/platform/Recent.test.ts",
  "test/platform/ServiceClockMemory.test.ts",
  "test/sandbox/Addresses.test.ts",
  "test/sandbox/Behaviour.test.ts",
  "test/sandbox/Models.test.ts",
  "test/sandbox/Network.test.ts",
  "test/sandbox/People.test.ts",
  "test/sandbox/SandboxDriverMemory.test.ts",
  "test/sandbox/StateMemory.test.ts",
  "test/triage/**/*.test.ts",
  "test/webhooks/AddressGuard.test.ts",
  "test/webhooks/AttemptSlots.test.ts",
  "test/webhooks/EndpointsMemory.test.ts",
  "test/webhooks/Backoff.test.ts",
  "test/webhooks/HeldDeliveries.test.ts",
  "test/webhooks/Receiver.test.ts",
  "test/webhooks/SafeTransport.test.ts",
  "test/webhooks/Signature.test.ts",
  "test/workspaces/WorkspacesMemory.test.ts"
]

/** `npm run test:slow`: processes, the browser, the README, the bundle, the memory test. */
export const slow: ReadonlyArray<string> = [
  "test/dashboard/Browser.test.ts",
  "test/dashboard/BrowserDailyWork.test.ts",
  "test/dashboard/BrowserOperations.test.ts",
  "test/docs/DocsSnippets.test.ts",
  "test/docs/Embedding.test.ts",
  "test/docs/Readme.test.ts",
  "test/examples/**/*.test.ts",
  "test/jobs/GovernorMemory.test.ts",
  "test/mcp/OAuth.test.ts",
  "test/mcp/Stdio.test.ts",
  "test/mcp/StdioRestart.test.ts",
  "test/packages/**/*.test.ts",
  "test/process/**/*.test.ts"
]

/**
 * The files that take longest, most of it waiting in real time (accounts leaving memory when idle,
 * a restart's lease rule, browsers, the README's first hour), started first in their tier, longest
 * first, so that no worker is left alone with one at the end (`LongestFirst.ts`). Without a record of
 * durations, on a fresh checkout as in CI, vitest starts the larger files first, and these are small:
 * the memory test started 166 s into a 226 s slow tier.
 */
export const longest: ReadonlyArray<string> = [
  "test/jobs/GovernorMemory.test.ts",
  "test/dashboard/Browser.test.ts",
  "test/process/Start.test.ts",
  "test/dashboard/BrowserDailyWork.test.ts",
  "test/jobs/LeavingMemory.test.ts",
  "test/jobs/Restart.test.ts",
  "test/network/unipile/Restart.test.ts",
  "test/platform/ClusterOnTestClock.test.ts",
  "test/network/unipile/UnipileDriver.test.ts"
]

/** `npm run chaos`, configured by `vitest.chaos.config.ts`. */
export const chaos: ReadonlyArray<string> = ["test/chaos/**/*.test.ts"]

/** The global setup of the tiers that use a database: the migrated template. */
const databaseTemplate = ["test/support/DatabaseTemplates.ts"]

/** The tiers as vitest's inline projects; each takes the root configuration's settings (`extends`). */
export const projects = [
  // One module graph per worker, not per file, in the fast and db tiers: importing Effect and the
  // service's modules anew for each file was two thirds of the fast tier's time, and in the db tier
  // each file also compiled PGlite's WebAssembly anew (PGlite keeps the compiled module for its module
  // graph). No file keeps state in a shared module: each builds its service and database in its own
  // layers and closes them, and no file mocks a module. The slow tier too: its time is in its child
  // processes and browsers, but a fresh module graph cost each of its 20 files about 2.5 s more.
  { extends: true, test: { name: "fast", include: [...fast], isolate: false } },
  {
    extends: true,
    test: {
      name: "db",
      include: [all],
      exclude: [...configDefaults.exclude, ...fast, ...slow, ...chaos],
      globalSetup: databaseTemplate,
      isolate: false
    }
  },
  { extends: true, test: { name: "slow", include: [...slow], globalSetup: databaseTemplate, isolate: false } }
]
