/** Verify over HTTP: decode, call one use case, render. */
import { Effect } from "effect"
import { ok } from "../../core/pipeline/request.ts"
import { parseCheck, parseStart } from "../../core/verify/requests.ts"
import { Verify } from "../../core/verify/service.ts"
import { keyOperation, requireJson, type Route } from "./operation.ts"

const sendGuard = { audience: "application_or_partner", scope: "verify:send" } as const
const checkGuard = { audience: "application_or_partner", scope: "verify:check" } as const

export const verifyRoutes = [
  {
    method: "POST",
    path: "/v1/verify/start",
    handler: keyOperation(sendGuard, (p, req) =>
      Effect.gen(function* () {
        const input = yield* parseStart(yield* requireJson(req))
        return ok(yield* (yield* Verify).start(p, input))
      })),
  },
  {
    method: "POST",
    path: "/v1/verify/check",
    handler: keyOperation(checkGuard, (p, req) =>
      Effect.gen(function* () {
        const input = yield* parseCheck(yield* requireJson(req))
        return ok(yield* (yield* Verify).check(p, input))
      })),
  },
  {
    method: "GET",
    path: "/v1/verify/:id",
    handler: keyOperation(
      checkGuard,
      (p, _req, params) => Effect.map(Effect.flatMap(Verify, (v) => v.read(p, params.id)), ok),
    ),
  },
  {
    method: "POST",
    path: "/v1/verify/:id/resend",
    handler: keyOperation(sendGuard, (p, req, params) =>
      Effect.gen(function* () {
        yield* requireJson(req)
        return ok(yield* (yield* Verify).resend(p, params.id))
      })),
  },
  {
    method: "POST",
    path: "/v1/verify/:id/cancel",
    handler: keyOperation(sendGuard, (p, req, params) =>
      Effect.gen(function* () {
        yield* requireJson(req)
        return ok(yield* (yield* Verify).cancel(p, params.id))
      })),
  },
] satisfies ReadonlyArray<Route<any>> as ReadonlyArray<Route<any>>
