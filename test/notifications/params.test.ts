/**
 * A send's parameters against the template (DECISIONS 7.2 `invalid_params`): core/notifications/params.ts.
 */
import { describe, expect, it } from "@effect/vitest"
import fc from "fast-check"
import type { NetworkTemplate } from "../../core/notifications/model.ts"
import { langProblem, paramProblems, paramRefusal } from "../../core/notifications/params.ts"

const tpl = (over: Partial<NetworkTemplate> = {}): NetworkTemplate => ({
  name: "order_update",
  lang: "ar",
  category: "utility",
  status: "approved",
  reason: null,
  body: "Order {{order_id}} for {{name}}",
  header: null,
  footer: null,
  buttons: [],
  ...over,
})
const named = tpl()
const positional = tpl({ body: "Order {{1}} for {{2}}" })
const withHeader = tpl({ header: { type: "text", text: "Order {{1}}" }, body: "{{1}}" })
const withButton = tpl({ body: "Hi", buttons: [{ type: "url", text: "Track", url: "https://x.sa/t/{{1}}" }] })
const auth = tpl({ category: "authentication", body: "{{1}} is your code." })
const image = tpl({ header: { type: "image" }, body: "Hi" })
const ok = { order_id: "A-1", name: "Sara" }
const link = "https://cdn.example.sa/p.png"

/** The problem of `name` in an otherwise valid send (nothing else refused). */
const problemOf = (value: unknown) => {
  const problems = paramProblems(named, { ...ok, name: value }, undefined)
  expect(Object.keys(problems).filter((k) => k !== "params.name")).toEqual([])
  return problems["params.name"]
}

describe("valid parameters give no problem", () => {
  it("named, positional, header, URL button, authentication code, image link", () => {
    expect(paramProblems(named, ok, undefined)).toEqual({})
    expect(paramProblems(positional, { "1": "a", "2": "b" }, undefined)).toEqual({})
    expect(paramProblems(withHeader, { header: "A-1", "1": "b" }, undefined)).toEqual({})
    expect(paramProblems(withButton, { button_0: "A-1" }, undefined)).toEqual({})
    expect(paramProblems(auth, { code: "123456" }, undefined)).toEqual({})
    expect(paramProblems(image, {}, { image: { link } })).toEqual({})
    expect(paramProblems(tpl({ body: "Hi" }), {}, undefined)).toEqual({})
    expect(paramProblems(tpl({ body: "Hi" }), {}, {})).toEqual({})
  })
})

describe("`missing`: a template key absent", () => {
  it("each absent key is named, with its `params.` prefix", () => {
    expect(paramProblems(named, {}, undefined)).toEqual({ "params.order_id": "missing", "params.name": "missing" })
    expect(paramProblems(withHeader, { "1": "x" }, undefined)).toEqual({ "params.header": "missing" })
    expect(paramProblems(withButton, {}, undefined)).toEqual({ "params.button_0": "missing" })
    expect(paramProblems(auth, {}, undefined)).toEqual({ "params.code": "missing" })
  })

  it("authentication takes `code`, not the body's own key", () => {
    expect(paramProblems(auth, { "1": "1234" }, undefined)).toEqual({
      "params.code": "missing",
      "params.1": "unexpected",
    })
  })
})

describe('`empty`: "" or only white space', () => {
  it.each(["", " ", "   ", "\u00a0", "\u3000", "\u2003 "])("%j is empty", (value) => {
    expect(problemOf(value)).toBe("empty")
  })
})

describe("`unexpected`: an unknown key; a link when the template has no image header", () => {
  it("unknown keys, whatever their value", () => {
    expect(paramProblems(named, { ...ok, extra: 1, "1": "x", __proto__x: null }, undefined)).toEqual({
      "params.extra": "unexpected",
      "params.1": "unexpected",
      "params.__proto__x": "unexpected",
    })
  })

  it("`header.image.link` without an image header (none, text, video)", () => {
    for (const t of [named, withHeader, tpl({ header: { type: "video" } })]) {
      const params = t === named ? ok : t === withHeader ? { header: "a", "1": "b" } : ok
      expect(paramProblems(t, params, { image: { link } })).toEqual({ "header.image.link": "unexpected" })
      expect(paramProblems(t, params, { image: { link: "" } })).toEqual({ "header.image.link": "unexpected" })
    }
  })
})

describe("`too_long`: over max_length in code points (header 60, body 1024, button 2000)", () => {
  const arabic = (n: number) => "ب".repeat(n)
  it("1,025 code points of Arabic text are too long for a body placeholder; 1,024 are not", () => {
    expect(problemOf(arabic(1025))).toBe("too_long")
    expect(problemOf(arabic(1024))).toBeUndefined()
  })

  it("an emoji counts as one code point each (1,024 emoji: 2,048 UTF-16 units, accepted)", () => {
    expect("🎉".repeat(1024).length).toBe(2048)
    expect(problemOf("🎉".repeat(1024))).toBeUndefined()
    expect(problemOf("🎉".repeat(1025))).toBe("too_long")
    expect(problemOf("👍🏽".repeat(512))).toBeUndefined()
  })

  it("header 60, button 2000, authentication code 1024", () => {
    expect(paramProblems(withHeader, { header: "h".repeat(60), "1": "x" }, undefined)).toEqual({})
    expect(paramProblems(withHeader, { header: "h".repeat(61), "1": "x" }, undefined)).toEqual({
      "params.header": "too_long",
    })
    expect(paramProblems(withButton, { button_0: "b".repeat(2000) }, undefined)).toEqual({})
    expect(paramProblems(withButton, { button_0: "b".repeat(2001) }, undefined)).toEqual({
      "params.button_0": "too_long",
    })
    expect(paramProblems(auth, { code: "1".repeat(1025) }, undefined)).toEqual({ "params.code": "too_long" })
  })
})

describe("`control_character`: any of U+0000-U+001F, U+007F-U+009F", () => {
  it.each([
    ["tab", "a\tb"],
    ["new line", "a\nb"],
    ["carriage return", "a\rb"],
    ["NUL", "a\u0000b"],
    ["U+001F", "a\u001f"],
    ["U+007F", "a\u007fb"],
    ["U+0085", "a\u0085b"],
    ["U+0085 alone (not white space to trim)", "\u0085"],
    ["U+009F", "\u009fb"],
  ])("%s", (_, value) => {
    expect(problemOf(value)).toBe("control_character")
  })

  it("U+00A0 and U+00A0 neighbours outside the ranges are fine", () => {
    expect(problemOf("a\u00a0b\u00a1\u007e")).toBeUndefined()
  })
})

describe("`not_string`", () => {
  it.each([1, 0, true, null, {}, [], ["x"]])("%j", (value) => {
    expect(problemOf(value)).toBe("not_string")
    expect(paramProblems(auth, { code: value }, undefined)).toEqual({ "params.code": "not_string" })
  })

  it("a link that is not a string", () => {
    expect(paramProblems(image, {}, { image: { link: 7 } })).toEqual({ "header.image.link": "not_string" })
    expect(paramProblems(image, {}, { image: { link: null } })).toEqual({ "header.image.link": "not_string" })
  })
})

describe("`invalid`: an authentication code not 4-15 ASCII letters or digits; a link not absolute https ≤ 2048", () => {
  it.each(["1234", "123456789012345", "abCD12", "ZZZZ"])("code %j is fine", (code) => {
    expect(paramProblems(auth, { code }, undefined)).toEqual({})
  })

  it.each(["123", "1234567890123456", "12-34", "12 34", "١٢٣٤", "１２３４", "café", "😀😀😀😀"])(
    "code %j is invalid",
    (code) => {
      expect(paramProblems(auth, { code }, undefined)).toEqual({ "params.code": "invalid" })
    },
  )

  it("a code is only checked on authentication templates", () => {
    expect(paramProblems(tpl({ body: "{{code}}" }), { code: "1" }, undefined)).toEqual({})
  })

  it.each([
    ["http:", "http://cdn.example.sa/p.png"],
    ["2,049 characters", `https://x.sa/${"a".repeat(2049 - 13)}`],
    ["relative", "/p.png"],
    ["no scheme", "cdn.example.sa/p.png"],
    ["mended by a URL parser", "https:cdn.example.sa/p.png"],
    ["no host", "https://"],
    ["ftp", "ftp://x.sa/p.png"],
    ["leading space", " https://x.sa/p.png"],
  ])("link: %s", (_, value) => {
    expect(paramProblems(image, {}, { image: { link: value } })).toEqual({ "header.image.link": "invalid" })
  })

  it("2,048 characters is fine; HTTPS in capitals too", () => {
    const long = `https://x.sa/${"a".repeat(2048 - 13)}`
    expect(long.length).toBe(2048)
    expect(paramProblems(image, {}, { image: { link: long } })).toEqual({})
    expect(paramProblems(image, {}, { image: { link: "HTTPS://X.SA/p.png" } })).toEqual({})
  })
})

describe("`required`: an image header's link absent", () => {
  it.each([undefined, {}, { image: {} }, { image: null }, { image: "x" }, { video: { link } }])(
    "header %j",
    (header) => {
      expect(paramProblems(image, {}, header)).toEqual({ "header.image.link": "required" })
    },
  )
})

describe("`lang` `required`: several languages and no `lang`", () => {
  it("two languages and no lang", () => {
    expect(langProblem(2, undefined)).toBe("required")
    expect(langProblem(5, undefined)).toBe("required")
  })
  it("one language, or a lang given", () => {
    expect(langProblem(1, undefined)).toBeUndefined()
    expect(langProblem(2, "ar")).toBeUndefined()
    expect(langProblem(1, "en")).toBeUndefined()
  })
})

describe("one reason per key, precedence: not_string, empty, control_character, too_long, invalid", () => {
  it("empty before control_character: white space that is also control (tab, new line)", () => {
    expect(problemOf("\t")).toBe("empty")
    expect(problemOf(" \n\r ")).toBe("empty")
  })
  it("control_character before too_long", () => {
    expect(problemOf(`\u007f${"x".repeat(1100)}`)).toBe("control_character")
    expect(paramProblems(image, {}, { image: { link: `https://x.sa/\t${"a".repeat(3000)}` } })).toEqual({
      "header.image.link": "control_character",
    })
  })
  it("control_character before invalid", () => {
    expect(paramProblems(auth, { code: "12\t34" }, undefined)).toEqual({ "params.code": "control_character" })
    expect(paramProblems(image, {}, { image: { link: "https://x.sa/\np.png" } })).toEqual({
      "header.image.link": "control_character",
    })
  })
  it("too_long before invalid (a code of 1,025 characters); empty before invalid", () => {
    expect(paramProblems(auth, { code: "-".repeat(1025) }, undefined)).toEqual({ "params.code": "too_long" })
    expect(paramProblems(auth, { code: "   " }, undefined)).toEqual({ "params.code": "empty" })
    expect(paramProblems(image, {}, { image: { link: " " } })).toEqual({ "header.image.link": "empty" })
  })

  it.prop(
    "for any value, the reason is the first that applies in that order",
    [
      fc.oneof(
        fc.string({ unit: fc.constantFrom("a", "1", " ", "\t", "\u0085", "\u007f", "🎉", "-"), maxLength: 20 }),
        fc.integer(),
        fc.constant(null),
      ),
      fc.integer({ min: 1, max: 20 }),
    ],
    ([value, repeat]) => {
      const v = typeof value === "string" ? value.repeat(repeat * 10) : value
      const expected = typeof v !== "string"
        ? "not_string"
        : v.trim() === ""
        ? "empty"
        : [...v].some((c) => c.charCodeAt(0) <= 0x1f || (c.charCodeAt(0) >= 0x7f && c.charCodeAt(0) <= 0x9f))
        ? "control_character"
        : [...v].length > 1024
        ? "too_long"
        : /^[A-Za-z0-9]{4,15}$/.test(v)
        ? undefined
        : "invalid"
      expect(paramProblems(auth, { code: v }, undefined)["params.code"]).toBe(expected)
    },
  )
})

describe("every problem is listed at once", () => {
  it("params and the link together", () => {
    const t = tpl({ header: { type: "image" }, body: "{{1}} {{2}} {{3}} {{4}}", buttons: [] })
    expect(paramProblems(t, { "1": "", "2": "a\tb", "5": "x", "4": 3 }, { image: { link: "http://x.sa" } }))
      .toEqual({
        "params.1": "empty",
        "params.2": "control_character",
        "params.3": "missing",
        "params.4": "not_string",
        "params.5": "unexpected",
        "header.image.link": "invalid",
      })
  })
})

describe("the refusal's body: `fields` (key → sentence) beside `errors` (key → code)", () => {
  it("one sentence per code, the limit named for too_long", () => {
    const t = tpl({ header: { type: "image" }, body: "{{1}} {{2}} {{3}} {{4}} {{5}}" })
    const problems = paramProblems(
      t,
      { "1": "", "2": "a\tb", "4": 3, "5": "x".repeat(1025), "9": "x" },
      { image: { link: "http://x.sa" } },
    )
    const refusal = paramRefusal(problems, t)
    expect(refusal.errors).toEqual(problems)
    expect(Object.keys(refusal.fields)).toEqual(Object.keys(problems))
    expect(refusal.fields["params.5"]).toBe("must be at most 1024 characters")
    expect(refusal.fields["header.image.link"]).toMatch(/https/)
    expect(new Set(Object.values(refusal.fields)).size).toBe(Object.keys(problems).length)
    expect(refusal.message).toBe("7 parameters are refused.")
  })

  it("`lang` required, on its own: the message quotes the key", () => {
    const refusal = paramRefusal({ lang: "required" })
    expect(refusal).toEqual({
      message: "`lang` is required: the template has several languages.",
      fields: { lang: "is required: the template has several languages" },
      errors: { lang: "required" },
    })
  })

  it("no value is echoed, and a long key is quoted at most 256 characters in the message", () => {
    const value = `${"v".repeat(5000)}\t`
    const key = "k".repeat(5000)
    const refusal = paramRefusal(paramProblems(tpl({ body: "{{1}}" }), { "1": value }, undefined))
    expect(Object.values(refusal.fields).every((f) => !f.includes("vvv"))).toBe(true)
    const long = paramRefusal(paramProblems(tpl({ body: "Hi" }), { [key]: "x" }, undefined))
    expect(long.message.length).toBeLessThan(256 + 64)
    expect(long.errors).toEqual({ [`params.${key}`]: "unexpected" })
  })
})
