// What the reference servers of `npm run bench` answer: the bodies the service answers on the
// measured routes, as captured from it (a queued job of an account still connecting).

export const meAnswer = {
  ok: true as const,
  orgId: "3b1f8a52-4c1e-4d8e-9c77-2a5e0d6f9b10",
  kind: "key" as const,
  keyName: "Owner key",
  org: null,
  user: null
}

/** `GET /v1/jobs/{id}`'s body, encoded. */
export const jobAnswer = {
  ok: true,
  job: {
    id: "21e97280-a6dd-48a9-86d9-19607baa1f40",
    accountId: "cfa40381-d66f-489d-a809-bdccbb97e5e3",
    kind: "ssi",
    status: "queued",
    input: {},
    result: null,
    error: null,
    eta: null,
    waitingFor: { reason: "account_connecting", until: null },
    approvalId: null,
    createdAt: "2026-11-25T21:40:15.291Z",
    startedAt: null,
    finishedAt: null
  }
}

/** The rate-limit headers the service puts on every answer. */
export const rateLimitHeaders = { "ratelimit-limit": "600", "ratelimit-remaining": "599", "ratelimit-reset": "60" }
