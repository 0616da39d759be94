// The baseline: a bare node:http server answering what GET /v1/me and GET /v1/jobs/{id} answer,
// with the same headers.
import { createServer } from "node:http"
import { jobAnswer, meAnswer, rateLimitHeaders } from "./answers.ts"

const me = JSON.stringify(meAnswer)
const job = JSON.stringify(jobAnswer)
const server = createServer((request, response) => {
  if (request.headers.authorization === undefined) {
    response.writeHead(401).end()
    return
  }
  const body = request.url?.startsWith("/v1/jobs/") === true ? job : me
  response.writeHead(200, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(body),
    ...rateLimitHeaders
  })
  response.end(body)
})
server.listen(0, "127.0.0.1", () => {
  const address = server.address()
  console.log(`bare server listening on ${typeof address === "object" && address !== null ? address.port : ""}`)
})
process.on("SIGTERM", () => server.close(() => process.exit(0)))
