/**
 * The OpenAPI document and the typed client come from the operation declarations: every declared operation
 * is in `/openapi.json`, every path there is served, the document is valid OpenAPI 3.1, and the client
 * drives a verification.
 */
import { Validator } from "@seriousme/openapi-schema-validator"
import { readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { ApiErrorResponse, makeClient } from "../../adapters/http/client.ts"
import { declaredOperations } from "../../adapters/platform.ts"
import { openApiOf } from "../../adapters/products.ts"
import { verifyOperations } from "../../core/verify/operations.ts"
import { phone } from "../support/phone.ts"
import { latestCode, setupApplication, useServer } from "../support/server.ts"

const s = useServer()

describe("GET /openapi.json: the document of the declared operations", () => {
  it("is served without a key, equals docs/openapi.json, and names every declared operation once", async () => {
    const res = await s.call("GET", "/openapi.json")
    expect(res.status).toBe(200)
    expect(res.body).toEqual(openApiOf())
    const committed = JSON.parse(readFileSync(new URL("../../docs/openapi.json", import.meta.url), "utf8"))
    // The test command's global setup rewrote it if the operations changed (scripts/openapi.ts): then it differs
    // from the committed copy (git diff), not from the document served.
    expect(committed, "docs/openapi.json is not the document served: run `npm run openapi`").toEqual(res.body)
    const ids = Object.values(res.body.paths as Record<string, Record<string, { operationId: string }>>)
      .flatMap((methods) => Object.values(methods).map((m) => m.operationId))
    expect(ids.sort()).toEqual(declaredOperations.map((o) => o.name).sort())
  })

  it("passes a maintained OpenAPI 3.1 validator", async () => {
    const validator = new Validator()
    const result = await validator.validate(JSON.parse(JSON.stringify(openApiOf())))
    expect(result.errors ?? []).toEqual([])
    expect(result.valid).toBe(true)
    expect(validator.version).toBe("3.1")
  })

  it("every path and method in it is served: without a key it answers 401, never the unknown-route 404", async () => {
    const document = openApiOf()
    for (const [path, methods] of Object.entries(document.paths)) {
      for (const method of Object.keys(methods)) {
        // The API also answers under /api (DECISIONS 4); the console only at /console/v1.
        for (const prefix of path.startsWith("/console/") ? [""] : ["", "/api"]) {
          const concrete = `${prefix}${path.replace(/\{\w+\}/g, crypto.randomUUID())}`
          const operation = (methods as Record<string, { security?: ReadonlyArray<Record<string, unknown>> }>)[method]
          if (operation.security?.length === 0) {
            // A public route (a logo) needs no key: OPTIONS on a path some route serves answers 204 with Allow.
            const options = await s.call("OPTIONS", concrete)
            expect(options.status, `OPTIONS ${concrete}`).toBe(204)
            expect(options.headers.get("allow")).toContain(method.toUpperCase())
            continue
          }
          const res = await s.call(method.toUpperCase(), concrete, method === "get" ? {} : { rawBody: "{}" })
          expect(res.status, `${method} ${concrete}`).toBe(401)
          // The console's and the account API's refusals carry a message (DECISIONS 2, 10); the key routes'
          // are the bare code.
          const withMessage = path.startsWith("/console/") ||
            (operation.security ?? []).some((scheme) => "accountToken" in scheme)
          if (withMessage) expect(res.body).toEqual({ error: "unauthorized", message: expect.any(String) })
          else expect(res.body).toEqual({ error: "unauthorized" })
        }
      }
    }
  })
})

describe("the typed client, from the same declarations", () => {
  it("starts and checks a code; a refusal is an ApiErrorResponse with the catalogue's code", async () => {
    const { key } = await setupApplication(s)
    const client = makeClient(verifyOperations, { baseUrl: s.baseUrl, key })
    const to = phone()
    const started = await client["verify.start"]({ to, reference: "signup-42" }, { idempotencyKey: "client-1" })
    expect(started).toMatchObject({ status: "pending", to, reference: "signup-42", attempts: 0 })
    const read = await client["verify.read"]({ id: started.id })
    expect(read.id).toBe(started.id)
    const checked = await client["verify.check"]({ id: started.id, code: await latestCode(s, to) })
    expect(checked.status).toBe("verified")

    const refused = await client["verify.start"]({ to: "12345" }).catch((e: unknown) => e)
    expect(refused).toBeInstanceOf(ApiErrorResponse)
    expect((refused as ApiErrorResponse).status).toBe(422)
    expect((refused as ApiErrorResponse).code).toBe("invalid_destination")
    expect((refused as ApiErrorResponse).requestId).toMatch(/^[0-9a-f-]{36}$/)
    const canceled = await client["verify.cancel"]({ id: started.id }).catch((e: unknown) => e)
    expect((canceled as ApiErrorResponse).body).toEqual({ error: "not_cancelable", status: "verified" })
  })
})
