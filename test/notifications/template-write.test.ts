/**
 * Template write bodies (DECISIONS 7.1 "Template writes"): core/notifications/template-write.ts.
 */
import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import fc from "fast-check"
import type { TemplateWrite } from "../../core/notifications/model.ts"
import { templateCreate, templateEdit, type WriteRefusal } from "../../core/notifications/template-write.ts"

const valid = { name: "order_update", lang: "ar", category: "utility", body: "Order {{1}} ships {{2}}." }

const accepted = (body: Record<string, unknown>): TemplateWrite => {
  const result = templateCreate(body)
  if (Either.isLeft(result)) throw new Error(`refused: ${JSON.stringify(result.left)}`)
  return result.right
}
const refused = (body: Record<string, unknown>): WriteRefusal => {
  const result = templateCreate(body)
  if (Either.isRight(result)) throw new Error(`accepted: ${JSON.stringify(result.right)}`)
  expect(Object.keys(result.left.fields)).toEqual(Object.keys(result.left.errors))
  return result.left
}
const errors = (body: Record<string, unknown>) => refused(body).errors

describe("a valid write gives the TemplateWrite, defaults null and []", () => {
  it("the minimal body", () => {
    expect(accepted(valid)).toEqual({ ...valid, header: null, footer: null, buttons: [] })
  })

  it("every optional field, null read as absent", () => {
    expect(accepted({ ...valid, header: null, footer: null, buttons: null })).toEqual({
      ...valid,
      header: null,
      footer: null,
      buttons: [],
    })
    const full = {
      name: "a".repeat(512),
      lang: "en_US",
      category: "marketing",
      body: "Hi {{name}}, {{name}} 🎉",
      header: { type: "text", text: "Hi {{first}}" },
      footer: "f".repeat(60),
      buttons: [
        { type: "quick_reply", text: "b".repeat(25) },
        { type: "url", text: "Track", url: "https://x.sa/t/{{1}}" },
        { type: "phone_number", text: "Call", phone: "+966500000000" },
        { type: "copy_code", text: "Copy" },
        { type: "otp", text: "Code" },
      ],
    }
    expect(accepted(full)).toEqual(full)
    expect(accepted({ ...valid, header: { type: "image" } }).header).toEqual({ type: "image" })
    expect(accepted({ ...valid, header: { type: "video" } }).header).toEqual({ type: "video" })
    expect(accepted({ ...valid, header: { type: "document" } }).header).toEqual({ type: "document" })
  })

  it("an authentication template with a placeholder", () => {
    expect(accepted({ ...valid, category: "authentication", body: "{{1}} is your code." }).category)
      .toBe("authentication")
  })
})

describe("required fields: name, lang, category, body", () => {
  it("each absent one is `required`", () => {
    expect(refused({})).toEqual({
      fields: { name: "is required", lang: "is required", category: "is required", body: "is required" },
      errors: { name: "required", lang: "required", category: "required", body: "required" },
    })
    expect(errors({ ...valid, body: null })).toEqual({ body: "required" })
  })

  it("a value that is not a string is `not_string`", () => {
    expect(errors({ name: 1, lang: ["ar"], category: {}, body: true })).toEqual({
      name: "not_string",
      lang: "not_string",
      category: "not_string",
      body: "not_string",
    })
  })

  it("a field the operation does not take is `unknown`", () => {
    expect(errors({ ...valid, components: [], status: "approved" })).toEqual({
      components: "unknown",
      status: "unknown",
    })
  })
})

describe("`name` ^[a-z0-9_]{1,512}$", () => {
  it.each(["Order", "order-update", "order update", "طلب", " order", "", "   "])("%j is invalid", (name) => {
    expect(errors({ ...valid, name })).toEqual({ name: "invalid" })
  })
  it("513 characters are too long", () => {
    expect(errors({ ...valid, name: "a".repeat(513) })).toEqual({ name: "too_long" })
    expect(accepted({ ...valid, name: "0_a" }).name).toBe("0_a")
  })
})

describe("`lang` ^[a-z]{2,3}(_[A-Z]{2})?$", () => {
  it.each(["ar", "en", "fil", "en_US", "ar_SA"])("%j is fine", (lang) => {
    expect(accepted({ ...valid, lang }).lang).toBe(lang)
  })
  it.each(["AR", "a", "arab", "en_us", "en-US", "en_USA", "en_", "", "ar "])("%j is invalid", (lang) => {
    expect(errors({ ...valid, lang })).toEqual({ lang: "invalid" })
  })
})

describe("`category`: utility, marketing or authentication", () => {
  it.each(["Utility", "transactional", "", "otp"])("%j is invalid", (category) => {
    expect(errors({ ...valid, category })).toEqual({ category: "invalid" })
  })
})

describe("`body`: 1 to 1024 code points", () => {
  it("1,024 code points (emoji count one) are fine; 1,025 of Arabic text are too long", () => {
    expect(accepted({ ...valid, body: "🎉".repeat(1024) }).body).toHaveLength(2048)
    expect(errors({ ...valid, body: "ب".repeat(1025) })).toEqual({ body: "too_long" })
  })
  it("an empty or blank body is invalid", () => {
    expect(errors({ ...valid, body: "" })).toEqual({ body: "invalid" })
    expect(errors({ ...valid, body: " \n " })).toEqual({ body: "invalid" })
  })
  it("new lines inside a body are fine", () => {
    expect(accepted({ ...valid, body: "Line 1\nLine 2" }).body).toBe("Line 1\nLine 2")
  })
})

describe("our decision, like the Cloud API: placeholders of a body", () => {
  it("placeholders in both styles are refused (body invalid)", () => {
    const refusal = refused({ ...valid, body: "Hi {{name}}, order {{1}}" })
    expect(refusal.errors).toEqual({ body: "invalid" })
    expect(refusal.fields.body).toMatch(/mix named/)
  })

  it.each(["{{1}} then {{3}}", "{{1}} {{3}} {{2}}", "{{2}}", "{{2}} {{1}}", "{{1}} {{1}} {{3}}", "{{10}}"])(
    "positional placeholders not numbered 1..n in order of first appearance: %j",
    (body) => {
      const refusal = refused({ ...valid, body })
      expect(refusal.errors).toEqual({ body: "invalid" })
      expect(refusal.fields.body).toMatch(/1, 2, 3/)
    },
  )

  it.each([
    "{{1}}",
    "{{1}} {{2}} {{1}} {{3}}",
    "{{1}}{{2}}{{3}}{{4}}{{5}}{{6}}{{7}}{{8}}{{9}}{{10}}",
    "{{0}} {{1}} {{01}}",
  ])(
    "numbered in order: %j",
    (body) => {
      expect(accepted({ ...valid, body }).body).toBe(body)
    },
  )

  it("an authentication template whose body has no placeholder is refused", () => {
    const refusal = refused({ ...valid, category: "authentication", body: "Your code is below." })
    expect(refusal.errors).toEqual({ body: "invalid" })
    expect(refusal.fields.body).toMatch(/code/)
    expect(accepted({ ...valid, category: "utility", body: "No placeholder." }).body).toBe("No placeholder.")
  })
})

describe('`header`: { type: "text", text ≤ 60 } or { type: image|video|document }', () => {
  it("text of 61 characters is too long; one placeholder at most", () => {
    expect(errors({ ...valid, header: { type: "text", text: "h".repeat(61) } })).toEqual({ "header.text": "too_long" })
    expect(errors({ ...valid, header: { type: "text", text: "{{1}} {{2}}" } })).toEqual({ "header.text": "invalid" })
    expect(errors({ ...valid, header: { type: "text", text: "{{1}} {{1}}" } })).toEqual({ "header.text": "invalid" })
  })

  it("a header placeholder in the other style than the body's is refused", () => {
    expect(errors({ ...valid, header: { type: "text", text: "{{name}}" } })).toEqual({ "header.text": "invalid" })
    expect(accepted({ ...valid, header: { type: "text", text: "{{1}}" } }).header).toEqual({
      type: "text",
      text: "{{1}}",
    })
  })

  it.each([
    ["not an object", "text", { header: "invalid" }],
    ["an array", [], { header: "invalid" }],
    ["no type", {}, { "header.type": "required" }],
    ["an unknown type", { type: "audio" }, { "header.type": "invalid" }],
    ["a type not a string", { type: 1 }, { "header.type": "not_string" }],
    ["text without text", { type: "text" }, { "header.text": "required" }],
    ["blank text", { type: "text", text: " " }, { "header.text": "invalid" }],
    ["text not a string", { type: "text", text: 5 }, { "header.text": "not_string" }],
    ["text beside a media type", { type: "image", text: "x" }, { "header.text": "unknown" }],
    ["another field", { type: "text", text: "x", link: "y" }, { "header.link": "unknown" }],
  ])("%s", (_, header, expected) => {
    expect(errors({ ...valid, header })).toEqual(expected)
  })
})

describe("`footer` ≤ 60", () => {
  it("60 is fine, 61 too long, blank invalid, a number not a string", () => {
    expect(accepted({ ...valid, footer: "ف".repeat(60) }).footer).toBe("ف".repeat(60))
    expect(errors({ ...valid, footer: "f".repeat(61) })).toEqual({ footer: "too_long" })
    expect(errors({ ...valid, footer: "" })).toEqual({ footer: "invalid" })
    expect(errors({ ...valid, footer: 3 })).toEqual({ footer: "not_string" })
  })
})

describe("`buttons`: at most 10 { type: quick_reply|url|phone_number|copy_code|otp, text 1-25, url?, phone? }", () => {
  const reply = { type: "quick_reply", text: "Yes" }
  it("10 buttons are fine, 11 too many", () => {
    expect(accepted({ ...valid, buttons: Array(10).fill(reply) }).buttons).toHaveLength(10)
    expect(errors({ ...valid, buttons: Array(11).fill(reply) })).toEqual({ buttons: "too_long" })
    expect(errors({ ...valid, buttons: {} })).toEqual({ buttons: "invalid" })
  })

  it.each([
    ["not an object", "x", { "buttons[1]": "invalid" }],
    ["no type", { text: "x" }, { "buttons[1].type": "required" }],
    ["an unknown type", { type: "flow", text: "x" }, { "buttons[1].type": "invalid" }],
    ["no text", { type: "quick_reply" }, { "buttons[1].text": "required" }],
    ["empty text", { type: "quick_reply", text: "" }, { "buttons[1].text": "invalid" }],
    ["text of 26", { type: "quick_reply", text: "t".repeat(26) }, { "buttons[1].text": "too_long" }],
    ["url without url", { type: "url", text: "Go" }, { "buttons[1].url": "required" }],
    ["url with http:", { type: "url", text: "Go", url: "http://x.sa" }, { "buttons[1].url": "invalid" }],
    ["url relative", { type: "url", text: "Go", url: "/x" }, { "buttons[1].url": "invalid" }],
    [
      "url of 2001",
      { type: "url", text: "Go", url: `https://x.sa/${"a".repeat(2001 - 13)}` },
      { "buttons[1].url": "too_long" },
    ],
    [
      "url with two placeholders",
      { type: "url", text: "Go", url: "https://x.sa/{{1}}/{{2}}" },
      { "buttons[1].url": "invalid" },
    ],
    ["phone_number without phone", { type: "phone_number", text: "Call" }, { "buttons[1].phone": "required" }],
    ["phone not E.164", { type: "phone_number", text: "Call", phone: "0500000000" }, { "buttons[1].phone": "invalid" }],
    ["url on another button", { type: "quick_reply", text: "x", url: "https://x.sa" }, { "buttons[1].url": "unknown" }],
    ["phone on another button", { type: "url", text: "x", url: "https://x.sa", phone: "+9665" }, {
      "buttons[1].phone": "unknown",
    }],
    ["another field", { type: "otp", text: "x", otp_type: "copy" }, { "buttons[1].otp_type": "unknown" }],
  ])("%s", (_, button, expected) => {
    expect(errors({ ...valid, buttons: [reply, button] })).toEqual(expected)
  })

  it("a url of 2,000 characters is fine", () => {
    const url = `https://x.sa/${"a".repeat(2000 - 13)}`
    expect(accepted({ ...valid, buttons: [{ type: "url", text: "Go", url }] }).buttons).toEqual([
      { type: "url", text: "Go", url },
    ])
  })
})

describe("values must be storable text (no NUL, no unpaired surrogate)", () => {
  it("each such field is invalid", () => {
    expect(errors({
      ...valid,
      body: "a\u0000",
      footer: "\ud800",
      header: { type: "text", text: "x\udc00" },
      buttons: [{ type: "quick_reply", text: "\u0000" }],
    })).toEqual({ body: "invalid", footer: "invalid", "header.text": "invalid", "buttons[0].text": "invalid" })
  })
})

describe("every refused field is named at once", () => {
  it("several fields", () => {
    expect(errors({ name: "X", lang: "arabic", category: "x", body: "{{a}} {{1}}", footer: 1, extra: 1 })).toEqual({
      extra: "unknown",
      name: "invalid",
      lang: "invalid",
      category: "invalid",
      body: "invalid",
      footer: "not_string",
    })
  })
})

describe("PUT: the same body without name and lang, which come from the path", () => {
  const { name: _, lang: __, ...edit } = valid
  it("name and lang are the path's", () => {
    expect(templateEdit("order_update", "en", edit)).toEqual(
      Either.right({ ...edit, name: "order_update", lang: "en", header: null, footer: null, buttons: [] }),
    )
  })
  it("name or lang in the body is unknown; the other rules hold", () => {
    expect(templateEdit("x", "ar", { ...edit, name: "y", lang: "ar" })).toEqual(Either.left({
      fields: { name: "is not a field of this operation", lang: "is not a field of this operation" },
      errors: { name: "unknown", lang: "unknown" },
    }))
    expect(
      Either.getLeft(templateEdit("x", "ar", { ...edit, body: "{{3}}" })).pipe((l) => l._tag === "Some" && l.value),
    )
      .toMatchObject({ errors: { body: "invalid" } })
  })
})

describe("fields' messages never quote a value", () => {
  it.prop("whatever the values, a message is short", [fc.string({ minLength: 300, maxLength: 2000 })], ([s]) => {
    const refusal = refused({
      name: s,
      lang: s,
      category: s,
      body: s + "{{x}}{{1}}",
      footer: s,
      buttons: [{ type: s }],
    })
    for (const message of Object.values(refusal.fields)) expect(message.length).toBeLessThan(256)
  })
})
