import { assert, describe, it } from "@effect/vitest"
import { html, trusted } from "../../src/dashboard/Html.ts"
import { csrfMatches, csrfTokenFor } from "../../src/http/SessionCookie.ts"
import { safeNext } from "../../src/dashboard/Requests.ts"

describe("the dashboard's HTML template", () => {
  it("escapes every interpolated text, in content and in quoted attributes", () => {
    const name = `<script>alert("x")</script> & 'quotes'`
    const out = html`<p title="${name}">${name}</p>`.value
    assert.notInclude(out, "<script>")
    assert.strictEqual(
      out,
      `<p title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quotes&#39;">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quotes&#39;</p>`
    )
  })

  it("inserts markup made by the template or marked trusted as it is; lists join; false, null and undefined render nothing", () => {
    const items = ["a<b", "c"].map((x) => html`<li>${x}</li>`)
    assert.strictEqual(html`<ul>${items}</ul>${false}${null}${undefined}${3}`.value, "<ul><li>a&lt;b</li><li>c</li></ul>3")
    assert.strictEqual(html`${trusted("<svg></svg>")}`.value, "<svg></svg>")
  })
})

describe("CSRF tokens and the way back after sign-in", () => {
  it("a token matches only the secret it was made for", () => {
    const token = csrfTokenFor("sess_one")
    assert.isTrue(csrfMatches("sess_one", token))
    assert.isFalse(csrfMatches("sess_two", token))
    assert.isFalse(csrfMatches("sess_one", undefined))
    assert.isFalse(csrfMatches("sess_one", token.slice(1)))
    assert.isFalse(csrfMatches("", csrfTokenFor("")))
  })

  it("goes back only to a dashboard path of this site", () => {
    assert.strictEqual(safeNext("/dashboard/approvals?x=1"), "/dashboard/approvals?x=1")
    for (const next of ["https://evil.test/dashboard", "//evil.test", "/dashboardx", "/v1/keys", "javascript:alert(1)", undefined]) {
      assert.strictEqual(safeNext(next), "/dashboard")
    }
  })
})
