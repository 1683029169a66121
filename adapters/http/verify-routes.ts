/** Verify over HTTP: decode, call one use case, render. */
import { Effect } from "effect"
import { ok } from "../../core/pipeline/request.ts"
import { parseCheck, parseStart } from "../../core/verify/requests.ts"
import { Verify } from "../../core/verify/service.ts"
import { makeOperations, requireJson, type Route } from "./operation.ts"

const sendGuard = { audience: "application_or_partner", scope: "verify:send" } as const
const checkGuard = { audience: "application_or_partner", scope: "verify:check" } as const

/** Built once with the Verify service and the order of checks in hand (nothing looked up per request). */
export const verifyRoutes = Effect.gen(function* () {
  const verify = yield* Verify
  const operation = yield* makeOperations
  return [
    {
      method: "POST",
      path: "/v1/verify/start",
      handler: operation.key(sendGuard, (p, req) =>
        Effect.gen(function* () {
          const input = yield* parseStart(yield* requireJson(req))
          return ok(yield* verify.start(p, input))
        })),
    },
    {
      method: "POST",
      path: "/v1/verify/check",
      handler: operation.key(checkGuard, (p, req) =>
        Effect.gen(function* () {
          const input = yield* parseCheck(yield* requireJson(req))
          return ok(yield* verify.check(p, input))
        })),
    },
    {
      method: "GET",
      path: "/v1/verify/:id",
      handler: operation.key(checkGuard, (p, _req, params) => Effect.map(verify.read(p, params.id), ok)),
    },
    {
      method: "POST",
      path: "/v1/verify/:id/resend",
      handler: operation.key(sendGuard, (p, req, params) =>
        Effect.gen(function* () {
          yield* requireJson(req)
          return ok(yield* verify.resend(p, params.id))
        })),
    },
    {
      method: "POST",
      path: "/v1/verify/:id/cancel",
      handler: operation.key(sendGuard, (p, req, params) =>
        Effect.gen(function* () {
          yield* requireJson(req)
          return ok(yield* verify.cancel(p, params.id))
        })),
    },
  ] satisfies ReadonlyArray<Route<any>> as ReadonlyArray<Route<any>>
})
