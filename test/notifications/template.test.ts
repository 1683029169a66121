/**
 * Templates' placeholders and the API's view of templates (DECISIONS 7.1, 7.2, 17): core/notifications/template.ts.
 */
import { describe, expect, it } from "@effect/vitest"
import fc from "fast-check"
import type { NetworkTemplate, TemplateButton } from "../../core/notifications/model.ts"
import {
  buttonParam,
  describeTemplates,
  parameterFormat,
  placeholdersOf,
  render,
  tokensOf,
  unsupportedReason,
} from "../../core/notifications/template.ts"

const tpl = (over: Partial<NetworkTemplate> = {}): NetworkTemplate => ({
  name: "order_update",
  lang: "ar",
  category: "utility",
  status: "approved",
  reason: null,
  body: "Hello",
  header: null,
  footer: null,
  buttons: [],
  ...over,
})

const keys = (t: NetworkTemplate) => placeholdersOf(t).map((p) => p.key)

describe("placeholder syntax: `{{name}}` named ([a-z_][a-z0-9_]*), `{{N}}` positional ([1-9][0-9]*), else literal", () => {
  it("named and positional placeholders are read with their style", () => {
    expect(tokensOf("Hi {{first_name}}, order {{1}} and {{_x9}} {{10}}")).toEqual([
      { key: "first_name", named: true },
      { key: "1", named: false },
      { key: "_x9", named: true },
      { key: "10", named: false },
    ])
  })

  it.each([
    "{{Order}}",
    "{{0}}",
    "{{01}}",
    "{{ 1 }}",
    "{{1a}}",
    "{{a-b}}",
    "{{}}",
    "{x}",
    "{{x}",
    "{{x} }",
    "{{é}}",
    "{{-1}}",
  ])("anything else in braces is literal text: %s", (text) => {
    expect(tokensOf(text)).toEqual([])
    expect(keys(tpl({ body: text }))).toEqual([])
    expect(parameterFormat(tpl({ body: text }))).toBe("none")
  })

  it("extra braces around a placeholder stay text around it", () => {
    expect(tokensOf("{{{1}}}")).toEqual([{ key: "1", named: false }])
    expect(render(tpl({ body: "{{{1}}}" }), { "1": "x" })).toBe("{x}")
  })
})

describe('keys (7.1): named → its name, positional → "1", "2"…, text header → `header`, URL button → `button_<index>`', () => {
  it("body keys in order of first appearance, each once, with max_length 1024", () => {
    expect(placeholdersOf(tpl({ body: "{{2}} {{1}} {{2}} {{3}}" }))).toEqual([
      { key: "2", component: "body", max_length: 1024 },
      { key: "1", component: "body", max_length: 1024 },
      { key: "3", component: "body", max_length: 1024 },
    ])
    expect(keys(tpl({ body: "{{order_id}} for {{name}}, {{order_id}}" }))).toEqual(["order_id", "name"])
  })

  it("a text header's placeholder is `header` (max_length 60), listed before the body's", () => {
    expect(placeholdersOf(tpl({ header: { type: "text", text: "Order {{1}}" }, body: "{{1}} {{2}}" }))).toEqual([
      { key: "header", component: "header", max_length: 60 },
      { key: "1", component: "body", max_length: 1024 },
      { key: "2", component: "body", max_length: 1024 },
    ])
    expect(keys(tpl({ header: { type: "text", text: "Order" } }))).toEqual([])
    expect(keys(tpl({ header: { type: "image" } }))).toEqual([])
  })

  it("a header holds at most one key, whatever its text holds", () => {
    expect(keys(tpl({ header: { type: "text", text: "{{1}} {{2}}" } }))).toEqual(["header"])
  })

  it("DECISIONS 17: `button_<index>` is the 0-based position among ALL the template's buttons (max_length 2000)", () => {
    const buttons: ReadonlyArray<TemplateButton> = [
      { type: "quick_reply", text: "Yes" },
      { type: "url", text: "Site", url: "https://x.sa/" },
      { type: "phone_number", text: "Call", phone: "+966500000000" },
      { type: "url", text: "Track", url: "https://x.sa/track/{{1}}" },
      { type: "url", text: "Named", url: "https://x.sa/o/{{order}}" },
    ]
    expect(placeholdersOf(tpl({ body: "{{1}}", buttons }))).toEqual([
      { key: "1", component: "body", max_length: 1024 },
      { key: "button_3", component: "button", max_length: 2000 },
      { key: "button_4", component: "button", max_length: 2000 },
    ])
  })

  it("only a URL button's placeholder is a key", () => {
    expect(keys(tpl({ buttons: [{ type: "copy_code", text: "{{1}}", url: "https://x.sa/{{1}}" }] }))).toEqual([])
  })

  it("authentication templates take only `code` (body, 1024), whatever the body, header and buttons hold", () => {
    const only = [{ key: "code", component: "body", max_length: 1024 }]
    expect(placeholdersOf(tpl({ category: "authentication", body: "{{1}} is your code. {{2}}" }))).toEqual(only)
    expect(placeholdersOf(tpl({ category: "authentication", body: "Code: {{otp}}" }))).toEqual(only)
    expect(placeholdersOf(tpl({
      category: "authentication",
      header: { type: "text", text: "{{1}}" },
      body: "Nothing",
      buttons: [{ type: "url", text: "Go", url: "https://x.sa/{{1}}" }],
    }))).toEqual(only)
  })

  it("a key met twice (a body's `{{header}}` beside a header placeholder) is listed once, where first met", () => {
    expect(placeholdersOf(tpl({ header: { type: "text", text: "{{header}}" }, body: "{{header}} {{name}}" })))
      .toEqual([
        { key: "header", component: "header", max_length: 60 },
        { key: "name", component: "body", max_length: 1024 },
      ])
  })
})

describe("parameter_format: named | positional | mixed | none, from the body and the text header (buttons do not count)", () => {
  it.each(
    [
      ["Hi", null, "none"],
      ["Hi {{name}}", null, "named"],
      ["Hi {{1}}", null, "positional"],
      ["Hi {{name}} {{1}}", null, "mixed"],
      ["Hi {{name}}", "Order {{1}}", "mixed"],
      ["Hi {{1}}", "Order {{name}}", "mixed"],
      ["Hi", "Order {{1}}", "positional"],
      ["Hi", "Order {{name}}", "named"],
      ["Hi {{name}}", "Order {{order}}", "named"],
    ] as const,
  )("body %j, header %j → %s", (body, header, format) => {
    expect(parameterFormat(tpl({ body, header: header === null ? null : { type: "text", text: header } })))
      .toBe(format)
  })

  it("a URL button's placeholder does not count", () => {
    const buttons = [{ type: "url", text: "Go", url: "https://x.sa/{{1}}" }]
    expect(parameterFormat(tpl({ body: "Hi {{name}}", buttons }))).toBe("named")
    expect(parameterFormat(tpl({ body: "Hi", buttons }))).toBe("none")
  })

  it("authentication: computed from its body the same way (not from its `code` key)", () => {
    expect(parameterFormat(tpl({ category: "authentication", body: "{{1}} is your code" }))).toBe("positional")
    expect(parameterFormat(tpl({ category: "authentication", body: "{{code}} is your code" }))).toBe("named")
    expect(parameterFormat(tpl({ category: "authentication", body: "{{1}} {{code}}" }))).toBe("mixed")
  })
})

describe("button param: `text` for a URL with a placeholder; `other` for flow, catalog, a marketing copy_code; else `none`", () => {
  it.each(
    [
      ["utility", { type: "url", text: "t", url: "https://x.sa/{{1}}" }, "text"],
      ["marketing", { type: "url", text: "t", url: "https://x.sa/{{name}}" }, "text"],
      ["utility", { type: "url", text: "t", url: "https://x.sa/" }, "none"],
      ["utility", { type: "url", text: "t", url: "https://x.sa/{{0}}" }, "none"],
      ["utility", { type: "flow", text: "t" }, "other"],
      ["authentication", { type: "flow", text: "t" }, "other"],
      ["marketing", { type: "catalog", text: "t" }, "other"],
      ["marketing", { type: "copy_code", text: "t" }, "other"],
      ["utility", { type: "copy_code", text: "t" }, "none"],
      ["authentication", { type: "copy_code", text: "t" }, "none"],
      ["authentication", { type: "otp", text: "t" }, "none"],
      ["utility", { type: "quick_reply", text: "t" }, "none"],
      ["utility", { type: "phone_number", text: "t", phone: "+966500000000" }, "none"],
    ] as const,
  )("%s %j → %s", (category, button, param) => {
    expect(buttonParam(category, button)).toBe(param)
  })
})

describe("the API's templates (7.1): grouped by name, sorted, the exact JSON shape", () => {
  it("one template, every field of its language", () => {
    expect(describeTemplates([
      tpl({
        name: "shipping",
        lang: "en_US",
        header: { type: "text", text: "Order {{1}}" },
        body: "Your order {{1}} ships {{2}}.",
        footer: "Thanks",
        buttons: [
          { type: "quick_reply", text: "Stop" },
          { type: "url", text: "Track", url: "https://x.sa/t/{{1}}" },
        ],
      }),
    ])).toEqual([{
      name: "shipping",
      category: "utility",
      parameter_format: "positional",
      languages: [{
        lang: "en_US",
        status: "approved",
        reason: null,
        header_type: "text",
        placeholders: [
          { key: "header", component: "header", max_length: 60 },
          { key: "1", component: "body", max_length: 1024 },
          { key: "2", component: "body", max_length: 1024 },
          { key: "button_1", component: "button", max_length: 2000 },
        ],
        buttons: [
          { type: "quick_reply", text: "Stop", param: "none" },
          { type: "url", text: "Track", param: "text" },
        ],
      }],
    }])
  })

  it("names sorted in code-unit order, languages by lang; category and parameter_format from the first language", () => {
    const views = describeTemplates([
      tpl({ name: "b", lang: "en", category: "marketing", body: "{{1}}" }),
      tpl({ name: "a_2", lang: "en" }),
      tpl({ name: "b", lang: "ar", category: "marketing", body: "{{name}}" }),
      tpl({ name: "B", lang: "fr" }),
      tpl({ name: "a", lang: "en_US" }),
      tpl({ name: "a", lang: "ar_SA" }),
      tpl({ name: "a", lang: "ar" }),
    ])
    expect(views.map((v) => [v.name, v.languages.map((l) => l.lang)])).toEqual([
      ["B", ["fr"]],
      ["a", ["ar", "ar_SA", "en_US"]],
      ["a_2", ["en"]],
      ["b", ["ar", "en"]],
    ])
    expect(views[3]).toMatchObject({ category: "marketing", parameter_format: "named" })
    expect(describeTemplates([])).toEqual([])
  })

  it("header_type: none, text, image, video, document", () => {
    const types = [null, { type: "text", text: "x" }, { type: "image" }, { type: "video" }, {
      type: "document",
    }] as const
    expect(
      describeTemplates(types.map((header, i) => tpl({ lang: `l${i}`, header })))[0].languages.map((l) =>
        l.header_type
      ),
    ).toEqual(["none", "text", "image", "video", "document"])
  })

  it("reason is null unless rejected, paused or disabled", () => {
    const statuses = ["approved", "pending", "rejected", "paused", "disabled"] as const
    const copies = statuses.map((status, i) => tpl({ lang: `l${i}`, status, reason: `why ${status}` }))
    expect(describeTemplates(copies)[0].languages.map((l) => [l.status, l.reason])).toEqual([
      ["approved", null],
      ["pending", null],
      ["rejected", "why rejected"],
      ["paused", "why paused"],
      ["disabled", "why disabled"],
    ])
    expect(describeTemplates([tpl({ status: "rejected", reason: null })])[0].languages[0].reason).toBeNull()
  })
})

describe("unsupported_template (7.2): a button with param `other`, `mixed`, or a video or document header", () => {
  it("each cause gives a message; a plain template gives none", () => {
    expect(unsupportedReason(tpl({ body: "{{1}}", header: { type: "image" } }))).toBeUndefined()
    expect(unsupportedReason(tpl({ buttons: [{ type: "flow", text: "Go" }] }))).toMatch(/flow/)
    expect(unsupportedReason(tpl({ buttons: [{ type: "catalog", text: "Go" }] }))).toMatch(/catalog/)
    expect(unsupportedReason(tpl({ category: "marketing", buttons: [{ type: "copy_code", text: "Go" }] })))
      .toMatch(/copy_code/)
    expect(unsupportedReason(tpl({ buttons: [{ type: "copy_code", text: "Go" }] }))).toBeUndefined()
    expect(unsupportedReason(tpl({ body: "{{name}} {{1}}" }))).toMatch(/mixes named and positional/)
    expect(unsupportedReason(tpl({ body: "{{name}}", header: { type: "text", text: "{{1}}" } }))).toMatch(/mixes/)
    expect(unsupportedReason(tpl({ header: { type: "video" } }))).toMatch(/video/)
    expect(unsupportedReason(tpl({ header: { type: "document" } }))).toMatch(/document/)
  })
})

describe("render: the body with each placeholder replaced by its value", () => {
  it("every occurrence is replaced, in one pass (a value's braces and `$` patterns are not read)", () => {
    expect(render(tpl({ body: "{{name}}: {{order}} for {{name}}" }), { name: "{{order}}", order: "$& $1" }))
      .toBe("{{order}}: $& $1 for {{order}}")
    expect(render(tpl({ body: "A {{1}} B {{2}} {X}" }), { "1": "x", "2": "y" })).toBe("A x B y {X}")
  })

  it("authentication: the code replaces the body's placeholder(s), whatever their name", () => {
    expect(render(tpl({ category: "authentication", body: "{{1}} is your code. {{1}}" }), { code: "1234" }))
      .toBe("1234 is your code. 1234")
    expect(render(tpl({ category: "authentication", body: "Code {{otp}}" }), { code: "ab12" })).toBe("Code ab12")
  })

  it("a placeholder without a value stays as written", () => {
    expect(render(tpl({ body: "{{1}} {{2}}" }), { "1": "x" })).toBe("x {{2}}")
    expect(render(tpl({ body: "{{constructor}}" }), {})).toBe("{{constructor}}")
  })
})

// Generated bodies: text without braces, decoys (brace forms that are not placeholders, none of which can join a
// neighbour into one) and placeholders of one style.
const literal = fc.string({ unit: fc.constantFrom("a", "Z", " ", "ب", "1", "_", "🎉", "\n", "$") })
const decoy = fc.constantFrom("{x}", "{{X}}", "{{0}}", "{{01}}", "{{ a }}", "{{1a}}", "{{}}", "{{-}}", "{{a-b}}")
const named = fc.stringMatching(/^[a-z_][a-z0-9_]{0,6}$/)
const positional = fc.integer({ min: 1, max: 120 }).map(String)
const bodyOf = (keyArb: fc.Arbitrary<string>) =>
  fc.array(
    fc.oneof(
      literal.map((text) => ({ text, key: undefined })),
      decoy.map((text) => ({ text, key: undefined })),
      keyArb.map((key) => ({ text: `{{${key}}}`, key })),
    ),
    { maxLength: 12 },
  ).map((parts) => ({
    body: parts.map((p) => p.text).join(""),
    keys: [...new Set(parts.flatMap((p) => (p.key === undefined ? [] : [p.key])))],
    filled: (values: Readonly<Record<string, string>>) =>
      parts.map((p) => (p.key === undefined ? p.text : values[p.key])).join(""),
  }))
const anyBody = fc.oneof(bodyOf(named), bodyOf(positional))

describe("the placeholder parser, on generated bodies", () => {
  it.prop("parsed keys equal the generated ones, in order of first appearance, each once", [anyBody], ([g]) => {
    expect(keys(tpl({ body: g.body }))).toEqual(g.keys)
  })

  it.prop("parameter_format follows the generated style", [bodyOf(named), bodyOf(positional)], ([n, p]) => {
    expect(parameterFormat(tpl({ body: n.body }))).toBe(n.keys.length === 0 ? "none" : "named")
    expect(parameterFormat(tpl({ body: p.body }))).toBe(p.keys.length === 0 ? "none" : "positional")
    const both = n.keys.length > 0 && p.keys.length > 0
    expect(parameterFormat(tpl({ body: n.body + p.body })) === "mixed").toBe(both)
  })

  it.prop(
    "render then parse: no placeholder is left when the values hold no braces",
    [anyBody, fc.string({ unit: fc.constantFrom("a", "1", " ", "_", "ب", "$") })],
    ([g, value]) => {
      const values = Object.fromEntries(g.keys.map((k, i) => [k, `${value}${i}`]))
      expect(tokensOf(render(tpl({ body: g.body }), values))).toEqual([])
    },
  )

  it.prop("render puts each key's value where its placeholders were", [anyBody], ([g]) => {
    const values = Object.fromEntries(g.keys.map((k) => [k, `<${k}>`]))
    expect(render(tpl({ body: g.body }), values)).toBe(g.filled(values))
  })
})
