/** Verify over HTTP: decode, call one use case, render. */
import { Effect } from "effect"
import type { KeyPrincipal } from "../../core/pipeline/authenticate.ts"
import { type ApiRequest, type Json, ok } from "../../core/pipeline/request.ts"
import { parseCheck, parseStart } from "../../core/verify/requests.ts"
import { Verify } from "../../core/verify/service.ts"
import { makeOperations, requireJson, type Route } from "./operation.ts"
import type { Params } from "./router.ts"

const sendGuard = { audience: "application_or_partner", scope: "verify:send" } as const
const checkGuard = { audience: "application_or_partner", scope: "verify:check" } as const

/** A write: the body is a JSON object, decoded by `decode`, then the use case answers the verification. */
const write = <I, E1, E2, R>(
  decode: (body: Json, params: Params) => Effect.Effect<I, E1>,
  call: (p: KeyPrincipal, input: I) => Effect.Effect<unknown, E2, R>,
) =>
(p: KeyPrincipal, req: ApiRequest, params: Params) =>
  Effect.map(Effect.flatMap(Effect.flatMap(requireJson(req), (body) => decode(body, params)), (i) => call(p, i)), ok)

/** Built once with the Verify service and the order of checks in hand (nothing looked up per request). */
export const verifyRoutes = Effect.gen(function* () {
  const verify = yield* Verify
  const operation = yield* makeOperations
  const idOf = (_body: Json, params: Params) => Effect.succeed(params.id)
  return [
    { method: "POST", path: "/v1/verify/start", handler: operation.key(sendGuard, write(parseStart, verify.start)) },
    { method: "POST", path: "/v1/verify/check", handler: operation.key(checkGuard, write(parseCheck, verify.check)) },
    {
      method: "GET",
      path: "/v1/verify/:id",
      handler: operation.key(checkGuard, (p, _req, params) => Effect.map(verify.read(p, params.id), ok)),
    },
    { method: "POST", path: "/v1/verify/:id/resend", handler: operation.key(sendGuard, write(idOf, verify.resend)) },
    { method: "POST", path: "/v1/verify/:id/cancel", handler: operation.key(sendGuard, write(idOf, verify.cancel)) },
  ] satisfies ReadonlyArray<Route<any>> as ReadonlyArray<Route<any>>
})
