/**
 * `npm run bench:mcp`: what an assistant pays to learn the tools. Starts the
 * service (`node src/main.ts`, embedded PGlite, a data directory of its own),
 * connects the official MCP SDK client over streamable HTTP and prints the
 * size of the `tools/list` answer (the JSON bytes on the wire, tool by tool for
 * the largest) and the client's `listTools` time: the first call, and the
 * median and worst of BENCH_ROUNDS more (default 20), with the CPU each side
 * spends per call (which a busy machine hardly moves) and a `ping` for the
 * floor. Targets: under 150 KB, under 100 ms.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { freePort, median, processCpuMs, spawnProcess, stopProcess, tempDir, waitUntilHealthy } from "./support.ts"

const rounds = Number(process.env["BENCH_ROUNDS"] ?? 20)
const bootstrapKey = "svc_" + "m".repeat(43)

const data = tempDir("outreach-bench-mcp-")
const port = await freePort()
const child = spawnProcess(["src/main.ts"], {
  PORT: String(port),
  DATA_DIR: data.path,
  LOG_LEVEL: "Warn",
  OUTREACH_BOOTSTRAP_KEY: bootstrapKey
})
try {
  const base = `http://127.0.0.1:${port}`
  await waitUntilHealthy(`${base}/healthz`, child)
  const client = new Client({ name: "bench-assistant", version: "1.0.0" })
  await client.connect(
    new StreamableHTTPClientTransport(new URL("/mcp", base), {
      requestInit: { headers: { authorization: `Bearer ${bootstrapKey}` } }
    })
  )
  const timed = async () => {
    const started = performance.now()
    const cpu = process.cpuUsage()
    const answer = await client.listTools()
    const used = process.cpuUsage(cpu)
    return { answer, ms: performance.now() - started, cpuMs: (used.user + used.system) / 1000 }
  }
  // The floor: a round trip that carries nothing (the gate, the session, JSON-RPC).
  const pings: Array<number> = []
  for (let round = 0; round < rounds; round++) {
    const started = performance.now()
    await client.ping()
    pings.push(performance.now() - started)
  }
  const first = await timed()
  const times: Array<number> = []
  const cpuTimes: Array<number> = []
  const serverBefore = processCpuMs(child.pid)
  for (let round = 0; round < rounds; round++) {
    const { cpuMs, ms } = await timed()
    times.push(ms)
    cpuTimes.push(cpuMs)
  }
  const serverAfter = processCpuMs(child.pid)
  const serverCpu = serverBefore === undefined || serverAfter === undefined ? "?" : ((serverAfter - serverBefore) / rounds).toFixed(1)
  const { tools } = first.answer
  const bytes = Buffer.byteLength(JSON.stringify(first.answer))
  const largest = tools
    .map((tool) => ({ name: tool.name, bytes: Buffer.byteLength(JSON.stringify(tool)) }))
    .sort((a, b) => b.bytes - a.bytes)
    .slice(0, 5)
  const part = (pick: (tool: (typeof tools)[number]) => unknown) =>
    (tools.reduce((sum, tool) => sum + Buffer.byteLength(JSON.stringify(pick(tool)) ?? ""), 0) / 1024).toFixed(1)
  await client.close()
  console.log(`tools/list: ${tools.length} tools, ${(bytes / 1024).toFixed(1)} KB (target < 150 KB)`)
  console.log(
    `  input schemas ${part((tool) => tool.inputSchema)} KB, output schemas ${part((tool) => tool.outputSchema)} KB, descriptions ${
      part((tool) => tool.description)
    } KB`
  )
  console.log(`  largest: ${largest.map((tool) => `${tool.name} ${(tool.bytes / 1024).toFixed(1)} KB`).join(", ")}`)
  console.log(
    `listTools (SDK client): first ${first.ms.toFixed(1)} ms; then median ${median(times).toFixed(1)} ms, worst ${
      Math.max(...times).toFixed(1)
    } ms over ${rounds} (target < 100 ms); the CPU per call: the client's median ${median(cpuTimes).toFixed(1)} ms, the service's mean ${serverCpu} ms; a ping: median ${median(pings).toFixed(1)} ms`
  )
} finally {
  await stopProcess(child)
  data.dispose()
}
