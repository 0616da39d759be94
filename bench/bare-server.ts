// The baseline: a bare node:http server answering what GET /v1/me answers, with the same headers.
import { createServer } from "node:http"

const body = JSON.stringify({
  ok: true,
  orgId: "3b1f8a52-4c1e-4d8e-9c77-2a5e0d6f9b10",
  kind: "key",
  keyName: "Owner key",
  org: null,
  user: null
})
const server = createServer((request, response) => {
  if (request.headers.authorization === undefined) {
    response.writeHead(401).end()
    return
  }
  response.writeHead(200, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(body),
    "ratelimit-limit": "600",
    "ratelimit-remaining": "599",
    "ratelimit-reset": "60"
  })
  response.end(body)
})
server.listen(0, "127.0.0.1", () => {
  const address = server.address()
  console.log(`bare server listening on ${typeof address === "object" && address !== null ? address.port : ""}`)
})
process.on("SIGTERM", () => server.close(() => process.exit(0)))
