/** `checkProducts`: what the types cannot see in a products list is refused when it is folded, naming each problem. */
import { Effect, Either, Schema } from "effect"
import { describe, expect, it } from "vitest"
import { product } from "../../adapters/product.ts"
import { checkProducts, eventsOf, products, smsGatewayOf } from "../../adapters/products.ts"
import { SmsGatewaySimulator } from "../../adapters/sms/simulator.ts"
import { SmsGatewayUnifonic } from "../../adapters/sms/unifonic.ts"
import { Cause, Exit, Layer } from "effect"
import { operation } from "../../core/pipeline/operation.ts"
import { ApiErrorClass } from "../../core/shared/api-error.ts"
import { Verify } from "../../core/verify/service.ts"

class Undeclared extends ApiErrorClass<Undeclared>()("undeclared_code", {}, { status: 409 }) {}

const probe = (scope: string, errors: ReadonlyArray<typeof Undeclared>, name = "probe.read") =>
  operation({
    name,
    summary: "A probe.",
    method: "GET",
    path: "/v1/probe",
    caller: { _tag: "Key", guard: { audience: "application", scope } },
    parameters: [],
    body: undefined,
    decode: () => Either.right(undefined),
    output: Schema.Struct({}),
    errors,
    idempotent: false,
    service: Verify,
    run: () => Effect.succeed({}),
  })

describe("the products list is checked when it is folded", () => {
  it("the real list passes", () => {
    expect(() => checkProducts(products)).not.toThrow()
  })

  it("an operation needing a scope, or answering a code, that no product declares is refused, naming both", () => {
    const broken = product({ name: "broken", operations: [probe("probe:read", [Undeclared])] })
    expect(() => checkProducts([...products, broken])).toThrow(
      [
        "The products list cannot be served:",
        "- probe.read (broken) needs the scope probe:read, which no product in the list declares.",
        "- probe.read (broken) answers undeclared_code, which no product in the list declares in its errors.",
      ].join("\n"),
    )
  })

  it("two operations of one name or one route are refused", () => {
    const twice = product({
      name: "twice",
      scopes: [{ scope: "probe:read", includes: [], description: "" }],
      errors: [Undeclared],
      operations: [
        probe("probe:read", []),
        probe("probe:read", [], "probe.again"),
        probe("probe:read", [], "probe.again"),
      ],
    })
    expect(() => checkProducts([...products, twice])).toThrow(
      /Two operations answer GET \/v1\/probe\.[\s\S]*Two operations are named probe\.again\./,
    )
  })

  it("a console page under the JSON API's or the frame's paths, or answering another page's path, is refused", () => {
    const page = (path: string) => ({ method: "GET" as const, path, handler: () => Effect.die("unused") })
    const pages = product({
      name: "pages",
      pages: [page("/v1/accounts"), page("/sign-in"), page("/mine"), page("/mine")],
    })
    expect(() => checkProducts([...products, pages])).toThrow(
      [
        "The products list cannot be served:",
        "- The console page GET /console/v1/accounts (pages) is under a path the console's frame or JSON API holds.",
        "- The console page GET /console/sign-in (pages) is under a path the console's frame or JSON API holds.",
        "- Two console pages answer GET /console/mine.",
      ].join("\n"),
    )
  })
})

describe("the SMS provider switch folds over the products list (each product offers its gateways by name)", () => {
  it("SMS_PROVIDER names a gateway some product offers", () => {
    expect(smsGatewayOf(products, "simulator")).toBe(SmsGatewaySimulator)
    expect(smsGatewayOf(products, "unifonic")).toBe(SmsGatewayUnifonic)
  })

  it("a name no product offers fails the start, listing those offered", async () => {
    const gateway = smsGatewayOf(products, "twilio") as Layer.Layer<unknown, unknown>
    const exit = await Effect.runPromiseExit(Effect.scoped(Layer.build(gateway)))
    expect(Exit.isFailure(exit) && Cause.pretty(exit.cause)).toContain(
      "unknown SMS_PROVIDER: twilio (the products offer unifonic, simulator)",
    )
  })
})

describe("events: each product declares the events it fires; the document's webhooks come from them", () => {
  it("every event of the catalogue (core/webhooks/events.ts) is declared by one product, and no other", async () => {
    const { AllEvents } = await import("../../core/webhooks/events.ts")
    expect(eventsOf().map((e) => e.name).sort()).toEqual([...AllEvents].sort())
  })
  it("an event declared twice is refused, naming it", () => {
    const twice = product({
      name: "twice",
      events: [{ name: "message.sent", summary: "again", data: Schema.Struct({}) }],
    })
    expect(() => checkProducts([...products, twice])).toThrow("Two products declare the event message.sent.")
  })
  it("/openapi.json lists each event under webhooks with its data's schema", async () => {
    const { openApiOf } = await import("../../adapters/products.ts")
    const doc = openApiOf()
    const sent = doc.webhooks?.["message.sent"] as any
    expect(sent.post.requestBody.content["application/json"].schema.properties.data).toEqual({
      $ref: "#/components/schemas/ChatMessage",
    })
    expect(Object.keys(doc.webhooks ?? {}).sort()).toEqual(eventsOf().map((e) => e.name).sort())
  })
})
