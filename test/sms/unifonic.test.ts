import { FetchHttpClient } from "@effect/platform"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Either, Layer, Logger, LogLevel } from "effect"
import { SmsGateway, type SmsReceipt, type SmsRefused } from "../../ports/sms.ts"
import { SaudiMobile } from "../../core/shared/brands.ts"
import {
  interpretUnifonicAnswer,
  layerUnifonic,
  makeUnifonic,
  SmsGatewayUnifonic,
  type UnifonicConfig,
} from "../../adapters/sms/unifonic.ts"
import { closedPort, startUnifonicStandIn, UnifonicErrors, type UnifonicStandIn } from "./unifonic-standin.ts"

// These tests talk to a real local HTTP server and rely on real time for the timeout: `it.live`, not `it.effect`.

const TO = SaudiMobile("+966501234567")
const OTP_TEXT = "Your code is 482913"

let standIn: UnifonicStandIn

beforeAll(async () => {
  standIn = await startUnifonicStandIn({ appSid: "test-app-sid" })
})
afterAll(async () => {
  await standIn.close()
})

const configFor = (s: UnifonicStandIn, overrides: Partial<UnifonicConfig> = {}): UnifonicConfig => ({
  appSid: s.appSid,
  senderId: "SAMSG",
  baseUrl: s.baseUrl,
  ...overrides,
})

/** Sends one SMS through a gateway built by `makeUnifonic` and returns the outcome as an Either. */
const sendWith = (config: UnifonicConfig, to: SaudiMobile = TO, text = OTP_TEXT) =>
  Effect.gen(function* () {
    const gateway = yield* makeUnifonic(config)
    return yield* Effect.either(gateway.send({ to, text }))
  }).pipe(Effect.provide(FetchHttpClient.layer))

const refusalOf = (outcome: Either.Either<SmsReceipt, SmsRefused>): SmsRefused => {
  if (Either.isRight(outcome)) throw new Error(`expected a refusal, got ${JSON.stringify(outcome.right)}`)
  expect(outcome.left._tag).toBe("SmsRefused")
  return outcome.left
}

const receiptOf = (outcome: Either.Either<SmsReceipt, SmsRefused>): SmsReceipt => {
  if (Either.isLeft(outcome)) throw new Error(`expected a receipt, got ${JSON.stringify(outcome.left)}`)
  return outcome.right
}

describe("a send posts Unifonic's documented form and returns the provider's MessageID", () => {
  it.live("POST /rest/SMS/messages, form-encoded AppSid, SenderID, Recipient without '+', Body, responseType=JSON", () =>
    Effect.gen(function* () {
      const before = standIn.requests.length
      const receipt = receiptOf(yield* sendWith(configFor(standIn)))

      const request = standIn.requests[before]
      expect(standIn.requests.length).toBe(before + 1)
      expect(request.method).toBe("POST")
      expect(request.path).toBe("/rest/SMS/messages")
      expect(request.contentType).toMatch(/^application\/x-www-form-urlencoded/)
      expect(request.accept).toBe("application/json")
      expect(request.fields).toEqual({
        AppSid: "test-app-sid",
        SenderID: "SAMSG",
        Recipient: "966501234567",
        Body: OTP_TEXT,
        responseType: "JSON",
      })

      const accepted = standIn.messages[standIn.messages.length - 1]
      expect(accepted).toEqual({
        messageId: accepted.messageId,
        senderId: "SAMSG",
        recipient: "966501234567",
        body: OTP_TEXT,
      })
      expect(receipt).toEqual({ providerMessageId: String(accepted.messageId) })
    }))

  it.live("the Body arrives byte for byte: Arabic text and form-reserved characters (& = + %) are encoded", () =>
    Effect.gen(function* () {
      const text = "رمز التحقق: 1234 & a=b + 50% ✓"
      const receipt = receiptOf(yield* sendWith(configFor(standIn), TO, text))
      const accepted = standIn.messages.find((m) => String(m.messageId) === receipt.providerMessageId)
      expect(accepted?.body).toBe(text)
    }))

  it.live("each send gets its own MessageID", () =>
    Effect.gen(function* () {
      const a = receiptOf(yield* sendWith(configFor(standIn)))
      const b = receiptOf(yield* sendWith(configFor(standIn)))
      expect(a.providerMessageId).not.toBe(b.providerMessageId)
    }))

  it.live('success given as the string "true" (the OpenAPI example) is a success too', () =>
    Effect.gen(function* () {
      const stringy = yield* Effect.promise(() =>
        startUnifonicStandIn({ appSid: "s", successAs: "true", firstMessageId: 3200017889310 })
      )
      const outcome = yield* sendWith(configFor(stringy)).pipe(Effect.ensuring(Effect.promise(() => stringy.close())))
      expect(receiptOf(outcome)).toEqual({ providerMessageId: "3200017889310" })
    }))

  it.live("a trailing slash on the base URL does not change the endpoint", () =>
    Effect.gen(function* () {
      const before = standIn.requests.length
      receiptOf(yield* sendWith(configFor(standIn, { baseUrl: `${standIn.baseUrl}/` })))
      expect(standIn.requests[before].path).toBe("/rest/SMS/messages")
    }))
})

describe("the provider's refusals map to SmsRefused with the provider's errorCode and message", () => {
  const cases = [
    ["insufficient funds", "966500000001", UnifonicErrors.insufficientFunds],
    ["invalid destination", "966500000002", UnifonicErrors.invalidDestination],
    ["destination too short", "966500000004", UnifonicErrors.destinationTooShort],
    ["no route to the destination", "966500000005", UnifonicErrors.noRoute],
    ["sender ID not valid", "966500000008", UnifonicErrors.invalidSenderId],
  ] as const

  for (const [name, recipient, error] of cases) {
    it.live(`${name}: ${error.errorCode} "${error.message}"`, () =>
      Effect.gen(function* () {
        standIn.script(recipient, { kind: "refuse", ...error })
        const messagesBefore = standIn.messages.length
        const refusal = refusalOf(yield* sendWith(configFor(standIn), SaudiMobile(`+${recipient}`)))
        expect({ providerCode: refusal.providerCode, message: refusal.message })
          .toEqual({ providerCode: error.errorCode, message: error.message })
        expect(standIn.messages.length).toBe(messagesBefore)
      }))
  }

  it.live("the envelope's code wins whatever `data` is (null instead of {})", () =>
    Effect.gen(function* () {
      standIn.script("966500000011", { kind: "refuse", ...UnifonicErrors.insufficientFunds, data: null })
      const refusal = refusalOf(yield* sendWith(configFor(standIn), SaudiMobile("+966500000011")))
      expect(refusal.providerCode).toBe("ER-01")
      expect(refusal.message).toBe("No rate found or insufficient funds")
    }))

  it.live("the envelope's code wins over the HTTP status when a 4xx carries one", () =>
    Effect.gen(function* () {
      standIn.script("966500000012", { kind: "refuse", ...UnifonicErrors.duplicated, status: 409 })
      const refusal = refusalOf(yield* sendWith(configFor(standIn), SaudiMobile("+966500000012")))
      expect(refusal.providerCode).toBe("ER-09")
      expect(refusal.message).toBe("Duplicated message")
    }))
})

describe("HTTP failures without a JSON envelope map to http_<status>", () => {
  it.live("HTTP 500 -> http_500", () =>
    Effect.gen(function* () {
      standIn.script("966500000500", { kind: "http", status: 500, body: "<html>Internal Server Error</html>" })
      const refusal = refusalOf(yield* sendWith(configFor(standIn), SaudiMobile("+966500000500")))
      expect(refusal.providerCode).toBe("http_500")
      expect(refusal.message).toBe("Unifonic answered HTTP 500")
    }))

  it.live("a wrong AppSid -> http_401 with the documented title", () =>
    Effect.gen(function* () {
      const refusal = refusalOf(yield* sendWith(configFor(standIn, { appSid: "not-the-app-sid" })))
      expect(refusal.providerCode).toBe("http_401")
      expect(refusal.message).toBe("Unifonic answered HTTP 401: Authentication failed")
    }))

  it.live("an empty text -> http_421 (No message body specified)", () =>
    Effect.gen(function* () {
      const refusal = refusalOf(yield* sendWith(configFor(standIn), TO, ""))
      expect(refusal.providerCode).toBe("http_421")
      expect(refusal.message).toBe("Unifonic answered HTTP 421: No message body specified")
    }))
})

describe("a provider that cannot be reached maps to unreachable", () => {
  it.live("nobody listening on the port -> unreachable", () =>
    Effect.gen(function* () {
      const port = yield* Effect.promise(() => closedPort())
      const refusal = refusalOf(yield* sendWith(configFor(standIn, { baseUrl: `http://127.0.0.1:${port}` })))
      expect(refusal.providerCode).toBe("unreachable")
      expect(refusal.message).toMatch(/^Unifonic unreachable/)
    }))

  it.live("no answer within the timeout -> unreachable, and the send gives up at the timeout", () =>
    Effect.gen(function* () {
      standIn.script("966500000999", { kind: "hang" })
      const started = Date.now()
      const refusal = refusalOf(
        yield* sendWith(configFor(standIn, { timeout: "200 millis" }), SaudiMobile("+966500000999")),
      )
      const elapsed = Date.now() - started
      expect(refusal.providerCode).toBe("unreachable")
      expect(refusal.message).toBe("Unifonic gave no answer within 200ms")
      expect(elapsed).toBeGreaterThanOrEqual(190)
      expect(elapsed).toBeLessThan(3000)
    }))
})

describe("the message text is never logged", () => {
  it.live("no log line of a send, success or refusal, contains the text", () =>
    Effect.gen(function* () {
      const lines: Array<string> = []
      const capture = Logger.replace(
        Logger.defaultLogger,
        Logger.make(({ message }) => {
          lines.push(JSON.stringify(message))
        }),
      )
      standIn.script("966500000013", { kind: "refuse", ...UnifonicErrors.filtered })
      yield* Effect.gen(function* () {
        const gateway = yield* SmsGateway
        yield* Effect.either(gateway.send({ to: TO, text: OTP_TEXT }))
        yield* Effect.either(gateway.send({ to: SaudiMobile("+966500000013"), text: OTP_TEXT }))
      }).pipe(
        Effect.provide(Layer.merge(layerUnifonic(configFor(standIn)), capture)),
        Logger.withMinimumLogLevel(LogLevel.All),
      )
      expect(lines.join("\n")).not.toContain("482913")
    }))
})

describe("SmsGatewayUnifonic reads its configuration from the environment", () => {
  const env = (vars: Record<string, string>) =>
    Layer.setConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(vars))))

  it.live("UNIFONIC_APP_SID, UNIFONIC_SENDER_ID and UNIFONIC_BASE_URL drive the send", () =>
    Effect.gen(function* () {
      const before = standIn.requests.length
      const receipt = yield* Effect.gen(function* () {
        const gateway = yield* SmsGateway
        return yield* gateway.send({ to: TO, text: OTP_TEXT })
      }).pipe(
        Effect.provide(SmsGatewayUnifonic.pipe(
          Layer.provide(env({
            UNIFONIC_APP_SID: "test-app-sid",
            UNIFONIC_SENDER_ID: "ENVSENDER",
            UNIFONIC_BASE_URL: standIn.baseUrl,
          })),
        )),
      )
      expect(receipt.providerMessageId).toMatch(/^\d+$/)
      expect(standIn.requests[before].fields["SenderID"]).toBe("ENVSENDER")
      expect(standIn.requests[before].fields["AppSid"]).toBe("test-app-sid")
    }))

  it.live("a missing UNIFONIC_APP_SID is a ConfigError when the layer is built", () =>
    Effect.gen(function* () {
      const result = yield* Effect.either(
        Layer.build(SmsGatewayUnifonic.pipe(Layer.provide(env({ UNIFONIC_SENDER_ID: "X" })))).pipe(Effect.scoped),
      )
      expect(Either.isLeft(result)).toBe(true)
      if (Either.isLeft(result)) expect(String(result.left)).toContain("UNIFONIC_APP_SID")
    }))

  it.live("a missing UNIFONIC_SENDER_ID is a ConfigError too", () =>
    Effect.gen(function* () {
      const result = yield* Effect.either(
        Layer.build(SmsGatewayUnifonic.pipe(Layer.provide(env({ UNIFONIC_APP_SID: "x" })))).pipe(Effect.scoped),
      )
      expect(Either.isLeft(result)).toBe(true)
      if (Either.isLeft(result)) expect(String(result.left)).toContain("UNIFONIC_SENDER_ID")
    }))
})

describe("the stand-in enforces the documented request rules", () => {
  const post = (s: UnifonicStandIn, fields: Record<string, string>) =>
    Effect.promise(async () => {
      const res = await fetch(`${s.baseUrl}/rest/SMS/messages`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(fields).toString(),
      })
      return { status: res.status, body: await res.text() }
    })
  const valid = {
    AppSid: "test-app-sid",
    SenderID: "SAMSG",
    Recipient: "966501234567",
    Body: "hi",
    responseType: "JSON",
  }

  it.live("missing AppSid -> 402, wrong AppSid -> 401", () =>
    Effect.gen(function* () {
      const { AppSid: _, ...noAppSid } = valid
      expect(yield* post(standIn, noAppSid)).toEqual({ status: 402, body: "Missing parameter AppSid" })
      expect(yield* post(standIn, { ...valid, AppSid: "nope" })).toEqual({ status: 401, body: "Authentication failed" })
    }))

  it.live("missing Recipient -> 422, missing Body -> 421", () =>
    Effect.gen(function* () {
      const { Recipient: _r, ...noRecipient } = valid
      const { Body: _b, ...noBody } = valid
      expect(yield* post(standIn, noRecipient)).toEqual({ status: 422, body: "No recipient parameter specified" })
      expect(yield* post(standIn, noBody)).toEqual({ status: 421, body: "No message body specified" })
    }))

  it.live("a Recipient with '+' is refused with ER-02", () =>
    Effect.gen(function* () {
      const answer = yield* post(standIn, { ...valid, Recipient: "+966501234567" })
      expect(answer.status).toBe(200)
      expect(JSON.parse(answer.body)).toEqual({
        success: false,
        message: "Invalid destination number",
        errorCode: "ER-02",
        data: null,
      })
    }))

  it.live("a valid request is answered with the documented success envelope", () =>
    Effect.gen(function* () {
      const answer = yield* post(standIn, valid)
      const body = JSON.parse(answer.body)
      expect(answer.status).toBe(200)
      expect(body).toMatchObject({ success: true, message: "", errorCode: "ER-00" })
      expect(Object.keys(body.data).sort()).toEqual(
        [
          "Balance",
          "CorrelationID",
          "Cost",
          "CurrencyCode",
          "MessageID",
          "NumberOfUnits",
          "Recipient",
          "Status",
          "TimeCreated",
        ],
      )
      expect(body.data.Recipient).toBe("966501234567")
      expect(body.data.TimeCreated).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3}$/)
    }))
})

describe("interpretUnifonicAnswer (pure)", () => {
  it("a MessageID beyond 2^53 keeps all its digits", () => {
    const raw = `{"success":true,"message":"","errorCode":"ER-00","data":{"MessageID":90071992547409931}}`
    expect(interpretUnifonicAnswer(200, raw)).toEqual({ providerMessageId: "90071992547409931" })
  })

  it("a 2xx that is not the envelope is bad_response", () => {
    const answer = interpretUnifonicAnswer(200, "<html>maintenance</html>")
    expect(answer).toMatchObject({ _tag: "SmsRefused", providerCode: "bad_response" })
  })

  it("success without a MessageID is bad_response", () => {
    const answer = interpretUnifonicAnswer(200, `{"success":true,"message":"","errorCode":"ER-00","data":{}}`)
    expect(answer).toMatchObject({ _tag: "SmsRefused", providerCode: "bad_response" })
  })

  it("a non-2xx JSON body without an errorCode is http_<status>", () => {
    const answer = interpretUnifonicAnswer(503, `{"success":false,"message":"busy"}`)
    expect(answer).toMatchObject({ _tag: "SmsRefused", providerCode: "http_503" })
  })
})
