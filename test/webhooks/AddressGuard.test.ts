import { assert, describe, it } from "@effect/vitest"
import { Duration, Effect, Fiber, Layer } from "effect"
import { TestClock } from "effect/testing"
import {
  type AddressKind,
  checkUrl,
  classifyAddress,
  classifyHost,
  DNS_DEADLINE,
  type ResolvedAddress,
  resolveAndCheck,
  urlVetter,
  vetUrl,
  WebhookResolver
} from "../../src/webhooks/AddressGuard.ts"

const strict = { allowPrivate: false }
const relaxed = { allowPrivate: true }

const refusedAddresses: ReadonlyArray<readonly [string, AddressKind]> = [
  // IPv4 loopback, private, link-local, CGNAT
  ["127.0.0.1", "loopback"],
  ["127.255.255.254", "loopback"],
  ["10.0.0.1", "private"],
  ["10.255.255.255", "private"],
  ["172.16.0.1", "private"],
  ["172.31.255.255", "private"],
  ["192.168.1.1", "private"],
  ["169.254.169.254", "linkLocal"],
  ["100.64.0.1", "sharedAddressSpace"],
  ["100.127.255.255", "sharedAddressSpace"],
  // multicast, reserved, unspecified, broadcast, documentation, benchmarking
  ["224.0.0.1", "multicast"],
  ["239.255.255.250", "multicast"],
  ["0.0.0.0", "unspecified"],
  ["0.1.2.3", "unspecified"],
  ["240.0.0.1", "reserved"],
  ["255.255.255.255", "broadcast"],
  ["192.0.0.8", "reserved"],
  ["192.0.2.10", "documentation"],
  ["198.18.0.1", "benchmarking"],
  ["198.19.255.255", "benchmarking"],
  ["198.51.100.7", "documentation"],
  ["203.0.113.9", "documentation"],
  // IPv6 loopback, unspecified, unique-local, link-local, documentation, multicast
  ["::1", "loopback"],
  ["0:0:0:0:0:0:0:1", "loopback"],
  ["::", "unspecified"],
  ["fc00::1", "uniqueLocal"],
  ["fd12:3456:789a::1", "uniqueLocal"],
  ["fe80::1", "linkLocal"],
  ["febf::1", "linkLocal"],
  ["fe80::1%eth0", "linkLocal"],
  ["2001:db8::1", "documentation"],
  ["3fff::1", "documentation"],
  ["ff02::1", "multicast"],
  ["ff0e::1", "multicast"],
  ["fec0::1", "private"],
  ["100::1", "reserved"],
  ["2001::1", "reserved"],
  // IPv4-mapped, dotted and hex
  ["::ffff:127.0.0.1", "loopback"],
  ["::ffff:7f00:1", "loopback"],
  ["0:0:0:0:0:ffff:7f00:0001", "loopback"],
  ["::ffff:10.0.0.1", "private"],
  ["::ffff:a9fe:a9fe", "linkLocal"],
  ["[::ffff:192.168.0.1]", "private"],
  // IPv4-compatible, NAT64, 6to4 embeddings of private addresses
  ["::127.0.0.1", "loopback"],
  ["::7f00:1", "loopback"],
  ["::10.1.2.3", "private"],
  ["64:ff9b::127.0.0.1", "loopback"],
  ["64:ff9b::a00:1", "private"],
  ["64:ff9b:1::1", "private"],
  ["2002:7f00:1::", "loopback"],
  ["2002:c0a8:101::1", "private"],
  ["2002:a9fe:a9fe::1", "linkLocal"]
]

const numericTricks: ReadonlyArray<readonly [string, string]> = [
  ["2130706433", "127.0.0.1"],
  ["0x7f000001", "127.0.0.1"],
  ["0X7F000001", "127.0.0.1"],
  ["0177.0.0.1", "127.0.0.1"],
  ["0177.0000.0000.0001", "127.0.0.1"],
  ["127.1", "127.0.0.1"],
  ["127.0.1", "127.0.0.1"],
  ["0x7f.1", "127.0.0.1"],
  ["0x7f.0.0.0x1", "127.0.0.1"],
  ["017700000001", "127.0.0.1"],
  ["127.0.0.1.", "127.0.0.1"],
  ["0", "0.0.0.0"],
  ["10.0x10.1", "10.16.0.1"],
  ["3232235777", "192.168.1.1"],
  ["0xa9fea9fe", "169.254.169.254"]
]

describe("AddressGuard", () => {
  describe("classifyAddress", () => {
    it("classifies every refused address class", () => {
      for (const [address, kind] of refusedAddresses) {
        assert.strictEqual(classifyAddress(address)?.kind, kind, address)
      }
    })

    it("reports the IPv4 address inside IPv6 embeddings, canonicalised", () => {
      assert.deepStrictEqual(classifyAddress("::ffff:127.0.0.1"), {
        address: "::ffff:7f00:1",
        family: 6,
        kind: "loopback",
        embeddedIPv4: "127.0.0.1"
      })
      assert.strictEqual(classifyAddress("2002:c0a8:0101::1")?.embeddedIPv4, "192.168.1.1")
      assert.strictEqual(classifyAddress("64:ff9b::8.8.8.8")?.kind, "public")
      assert.strictEqual(classifyAddress("2606:4700:0000:0000:0000:0000:0000:1111")?.address, "2606:4700::1111")
    })

    it("reads decimal, hex, octal and short IPv4 forms by value", () => {
      for (const [raw, canonical] of numericTricks) {
        assert.strictEqual(classifyAddress(raw)?.address, canonical, raw)
        assert.strictEqual(classifyAddress(raw)?.family, 4, raw)
      }
    })

    it("recognises public addresses", () => {
      for (const address of ["8.8.8.8", "1.1.1.1", "172.32.0.1", "100.128.0.1", "192.169.0.1", "2606:4700::1111", "2a00:1450:4001:80b::200e"]) {
        assert.strictEqual(classifyAddress(address)?.kind, "public", address)
      }
    })

    it("is undefined for text that is no address", () => {
      for (const text of ["example.com", "1.2.3.4.5", "256.0.0.1", "1.2.3.08", "::1::2", "1:2:3:4:5:6:7:8:9", "gggg::1", ""]) {
        assert.isUndefined(classifyAddress(text), text)
      }
    })
  })

  describe("classifyHost", () => {
    it("tells names, literals and invalid hosts apart", () => {
      assert.deepStrictEqual(classifyHost("Hooks.Example.COM."), { type: "name", name: "hooks.example.com" })
      assert.strictEqual(classifyHost("0x7f000001").type, "ip")
      assert.deepStrictEqual(classifyHost("1.2.3.08"), { type: "invalid" })
      assert.deepStrictEqual(classifyHost("foo.123"), { type: "invalid" })
      assert.deepStrictEqual(classifyHost("exa mple.com"), { type: "invalid" })
      assert.deepStrictEqual(classifyHost("-bad.example.com"), { type: "invalid" })
    })
  })

  describe("checkUrl", () => {
    it("allows https to public addresses and names", () => {
      for (const url of ["https://8.8.8.8/hook", "https://[2606:4700::1111]/hook", "https://hooks.example.com:8443/x?y=1"]) {
        const result = checkUrl(url, strict)
        assert.isTrue(result.ok, url)
      }
      const literal = checkUrl("https://[2606:4700::1111]/hook", strict)
      assert.isTrue(literal.ok && literal.host === "2606:4700::1111" && literal.address?.kind === "public")
      const named = checkUrl("https://hooks.example.com/", strict)
      assert.isTrue(named.ok && named.host === "hooks.example.com" && named.address === undefined)
    })

    it("requires https unless private webhooks are allowed", () => {
      const result = checkUrl("http://8.8.8.8/hook", strict)
      assert.isTrue(!result.ok && result.reason === "httpsRequired")
      assert.isTrue(checkUrl("http://8.8.8.8/hook", relaxed).ok)
      for (const url of ["ftp://8.8.8.8/", "file:///etc/passwd", "javascript:alert(1)"]) {
        const refused = checkUrl(url, relaxed)
        assert.isTrue(!refused.ok && refused.reason === "unsupportedScheme", url)
      }
      const invalid = checkUrl("not a url", strict)
      assert.isTrue(!invalid.ok && invalid.reason === "invalidUrl")
    })

    it("refuses every refused address class as a URL host", () => {
      for (const [address, kind] of refusedAddresses) {
        if (address.includes("%")) continue // WHATWG URL rejects zone ids outright
        const host = address.includes(":") && !address.startsWith("[") ? `[${address}]` : address
        const result = checkUrl(`https://${host}/hook`, strict)
        assert.isTrue(!result.ok, address)
        if (!result.ok) {
          assert.strictEqual(result.reason, "forbiddenAddress", address)
          assert.strictEqual(result.address?.kind, kind, address)
          assert.include(result.message, kind, address)
        }
      }
    })

    it("refuses numeric host tricks, which WHATWG URL normalises first", () => {
      for (const [raw, canonical] of numericTricks) {
        const url = new URL(`https://${raw}/hook`)
        assert.strictEqual(url.hostname, canonical, raw) // the normalised form
        const result = checkUrl(`https://${raw}/hook`, strict)
        assert.isTrue(!result.ok && result.reason === "forbiddenAddress", raw)
      }
      // Hex IPv6 spellings are normalised too.
      assert.strictEqual(new URL("https://[::ffff:127.0.0.1]/").hostname, "[::ffff:7f00:1]")
      for (const url of ["https://[::ffff:127.0.0.1]/", "https://[::ffff:7f00:1]/", "https://[64:ff9b::10.0.0.1]/"]) {
        const result = checkUrl(url, strict)
        assert.isTrue(!result.ok && result.reason === "forbiddenAddress", url)
      }
    })

    it("refuses localhost names unless private webhooks are allowed", () => {
      for (const url of ["https://localhost/", "https://LOCALHOST./x", "https://api.localhost/"]) {
        const result = checkUrl(url, strict)
        assert.isTrue(!result.ok && result.reason === "localHostname", url)
        assert.isTrue(checkUrl(url, relaxed).ok, url)
      }
    })

    it("allowPrivate allows http to loopback and private ranges, never link-local or reserved", () => {
      for (const url of ["http://127.0.0.1:8080/hook", "http://[::1]:3000/", "http://10.1.2.3/", "http://192.168.0.5/", "http://[fd00::5]/", "http://100.64.1.1/"]) {
        assert.isTrue(checkUrl(url, relaxed).ok, url)
      }
      for (const url of ["http://169.254.169.254/latest/meta-data", "http://0.0.0.0/", "http://224.0.0.1/", "http://255.255.255.255/", "http://[fe80::1]/", "http://192.0.2.1/"]) {
        const result = checkUrl(url, relaxed)
        assert.isTrue(!result.ok && result.reason === "forbiddenAddress", url)
      }
    })
  })

  describe("resolveAndCheck", () => {
    const dns = WebhookResolver.layerStatic({
      "public.example": ["93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c"],
      "loopback.example": ["127.0.0.1"],
      "mixed.example": ["8.8.8.8", "10.0.0.7"],
      "mapped.example": ["2606:4700::1111", "::ffff:169.254.169.254"],
      "empty.example": [],
      "garbage.example": ["not-an-ip"]
    })

    it.effect("returns every vetted address and pins the first", () =>
      Effect.gen(function*() {
        const target = yield* resolveAndCheck("public.example", strict)
        assert.deepStrictEqual(target, {
          host: "public.example",
          address: "93.184.215.14",
          family: 4,
          addresses: ["93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c"]
        })
      }).pipe(Effect.provide(dns)))

    it.effect("refuses a name that resolves to 127.0.0.1", () =>
      Effect.gen(function*() {
        const error = yield* Effect.flip(resolveAndCheck("loopback.example", strict))
        assert.strictEqual(error.reason, "forbiddenAddress")
        assert.strictEqual(error.address, "127.0.0.1")
        // Development mode lets it through.
        const target = yield* resolveAndCheck("loopback.example", relaxed)
        assert.strictEqual(target.address, "127.0.0.1")
      }).pipe(Effect.provide(dns)))

    it.effect("refuses a name with one public and one private address", () =>
      Effect.gen(function*() {
        const mixed = yield* Effect.flip(resolveAndCheck("mixed.example", strict))
        assert.strictEqual(mixed.reason, "forbiddenAddress")
        assert.strictEqual(mixed.address, "10.0.0.7")
        const mapped = yield* Effect.flip(resolveAndCheck("mapped.example", relaxed))
        assert.strictEqual(mapped.reason, "forbiddenAddress")
        assert.include(mapped.message, "169.254.169.254")
      }).pipe(Effect.provide(dns)))

    it.effect("refuses names that do not resolve, resolve to nothing or to non-addresses", () =>
      Effect.gen(function*() {
        for (const host of ["missing.example", "empty.example", "garbage.example"]) {
          const error = yield* Effect.flip(resolveAndCheck(host, strict))
          assert.strictEqual(error.reason, "unresolvable", host)
        }
      }).pipe(Effect.provide(dns)))

    it.effect("judges IP literals and numeric tricks without DNS", () =>
      Effect.gen(function*() {
        for (const host of ["2130706433", "0x7f000001", "0177.0.0.1", "127.1", "[::ffff:7f00:1]", "::ffff:127.0.0.1", "2002:7f00:1::"]) {
          const error = yield* Effect.flip(resolveAndCheck(host, strict))
          assert.strictEqual(error.reason, "forbiddenAddress", host)
        }
        const v4 = yield* resolveAndCheck("8.8.8.8", strict)
        assert.deepStrictEqual(v4, { host: "8.8.8.8", address: "8.8.8.8", family: 4, addresses: ["8.8.8.8"] })
        const v6 = yield* resolveAndCheck("2606:4700::1111", strict)
        assert.strictEqual(v6.family, 6)
        assert.strictEqual((yield* Effect.flip(resolveAndCheck("localhost", strict))).reason, "localHostname")
        assert.strictEqual((yield* Effect.flip(resolveAndCheck("1.2.3.08", strict))).reason, "invalidHost")
      }).pipe(Effect.provide(WebhookResolver.layerStatic({}))))

    it.effect("a resolver that does not answer is given up after the deadline, with a clear refusal", () =>
      Effect.gen(function*() {
        const silent = Layer.succeed(WebhookResolver, { lookup: () => Effect.never })
        const pending = yield* Effect.forkChild(Effect.flip(vetUrl("https://slow.example/hook", strict)).pipe(Effect.provide(silent)))
        yield* TestClock.adjust(Duration.subtract(DNS_DEADLINE, Duration.millis(1)))
        assert.isUndefined(pending.pollUnsafe())
        yield* TestClock.adjust(Duration.millis(1))
        const error = yield* Fiber.join(pending)
        assert.strictEqual(error.reason, "unresolvable")
        assert.include(error.message, "did not resolve within 2s")
      }))

    it.effect("vetUrl checks the URL, then its resolved addresses", () =>
      Effect.gen(function*() {
        const vetted = yield* vetUrl("https://public.example/hooks", strict)
        assert.strictEqual(vetted.target.address, "93.184.215.14")
        assert.strictEqual(vetted.url.pathname, "/hooks")
        assert.strictEqual((yield* Effect.flip(vetUrl("http://public.example/", strict))).reason, "httpsRequired")
        assert.strictEqual((yield* Effect.flip(vetUrl("https://mixed.example/", strict))).reason, "forbiddenAddress")
        const literal = yield* Effect.flip(vetUrl("https://0x7f000001/", strict))
        assert.strictEqual(literal.reason, "forbiddenAddress")
        assert.strictEqual(literal.address, "127.0.0.1")
      }).pipe(Effect.provide(dns)))

    it.effect("urlVetter gives vetUrl's verdicts, and resolves a name at every call: a changed answer is vetted again", () =>
      Effect.gen(function*() {
        let answer: ReadonlyArray<ResolvedAddress> = [{ address: "93.184.215.14", family: 4 }]
        let lookups = 0
        const vet = urlVetter(strict, {
          lookup: () =>
            Effect.sync(() => {
              lookups++
              return answer
            })
        })
        for (let call = 0; call < 2; call++) {
          const vetted = yield* vet("https://rebinding.example/hooks")
          assert.strictEqual(vetted.target.address, "93.184.215.14")
          assert.strictEqual(vetted.url.pathname, "/hooks")
        }
        assert.strictEqual(lookups, 2)
        answer = [{ address: "93.184.215.14", family: 4 }, { address: "10.0.0.7", family: 4 }]
        const rebound = yield* Effect.flip(vet("https://rebinding.example/hooks"))
        assert.strictEqual(rebound.reason, "forbiddenAddress")
        assert.strictEqual(rebound.address, "10.0.0.7")
        answer = [{ address: "2606:4700::1111", family: 6 }]
        assert.strictEqual((yield* vet("https://rebinding.example/hooks")).target.address, "2606:4700::1111")
        for (const url of ["http://public.example/", "https://0x7f000001/", "https://8.8.8.8/x"]) {
          for (let call = 0; call < 2; call++) {
            assert.deepStrictEqual(
              yield* Effect.result(vet(url)),
              yield* Effect.result(vetUrl(url, strict).pipe(Effect.provide(dns)))
            )
          }
        }
      }))

    it.effect("the system resolver resolves localhost names through node:dns", () =>
      Effect.gen(function*() {
        const target = yield* resolveAndCheck("localhost", relaxed)
        assert.strictEqual(classifyAddress(target.address)?.kind, "loopback")
      }).pipe(Effect.provide(WebhookResolver.layer)))
  })
})
