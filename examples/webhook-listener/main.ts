/**
 * A webhook receiver for your first hour, and the shape of one in your own
 * code: it listens on a port, verifies each delivery's signature with the
 * endpoint's secret through the receiver's kit (`outreach-service/webhooks`,
 * node:crypto only), and prints one line per event.
 *
 *   npm run -s webhooks:listen -- --secret whsec_… [--port 3000]
 *
 * A verified delivery is answered 204 and printed as `verified <type> <data>`;
 * any other is answered 400 and printed as `rejected <reason>`, so a wrong
 * secret shows at once.
 */
import { createServer } from "node:http"
import { parseArgs } from "node:util"
import { verifyWebhook } from "outreach-service/webhooks"

const { values } = parseArgs({
  options: { secret: { type: "string" }, port: { type: "string", default: "3000" } }
})
const secret = values.secret ?? process.env.WEBHOOK_SECRET
if (secret === undefined || !secret.startsWith("whsec_")) {
  console.error("Give the endpoint's secret (whsec_…, from POST /v1/webhooks): --secret whsec_… or WEBHOOK_SECRET.")
  process.exit(1)
}

const server = createServer((request, response) => {
  const chunks: Array<Buffer> = []
  request.on("data", (chunk: Buffer) => chunks.push(chunk))
  request.on("end", () => {
    const body = Buffer.concat(chunks)
    const verified = verifyWebhook(secret, request.headers, body)
    if (!verified.ok) {
      console.log(`rejected ${verified.reason} (${request.method} ${request.url})`)
      response.writeHead(400).end()
      return
    }
    const event: { readonly type: string; readonly data: unknown } = JSON.parse(body.toString("utf8"))
    console.log(`verified ${event.type} ${JSON.stringify(event.data)}`)
    response.writeHead(204).end()
  })
})

server.on("error", (error) => {
  console.error(`Cannot listen on port ${values.port}: ${error.message}. Choose another with --port.`)
  process.exit(1)
})
server.listen(Number(values.port), "127.0.0.1", () => {
  console.log(`Listening for webhooks on http://127.0.0.1:${values.port}/ (Ctrl-C stops)`)
})
process.on("SIGINT", () => server.close(() => process.exit(0)))
process.on("SIGTERM", () => server.close(() => process.exit(0)))
