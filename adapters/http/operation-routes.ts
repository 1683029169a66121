/** Routes from operation declarations: step 4 decodes, one use case runs, the answer is rendered. */
import { Effect, Either } from "effect"
import type { Principal } from "../../core/pipeline/authenticate.ts"
import { type ApiRequest, ok } from "../../core/pipeline/request.ts"
import type { Json } from "../../core/shared/json.ts"
import type { Answer, AnyOperation, Caller, RawInput } from "../../core/pipeline/operation.ts"
import { consoleOperation, makeOperations, requireJson, type Route } from "./operation.ts"
import type { Params } from "./router.ts"

/** `/v1/verify/{id}` (OpenAPI) as the router writes it: `/v1/verify/:id`. */
export const routerPath = (path: string): string => path.replace(/\{(\w+)\}/g, ":$1")

/**
 * The routes of some declared operations, built once with their services and the order of checks in hand
 * (nothing is looked up per request).
 */
export const routesOf = (operations: ReadonlyArray<AnyOperation>) =>
  Effect.gen(function* () {
    const checks = yield* makeOperations
    const routes: Array<Route<any>> = []
    for (const op of operations) {
      const service = yield* op.service
      const answer = op.answer ?? bare
      const render = answer.envelope === "bare"
        ? (output: unknown) => ok(output, answer.status)
        : (output: unknown) => ok({ data: output }, answer.status)
      /** Step 4's decoding, then the use case: no extra Effect step when the input decodes (the usual case). */
      const call = (p: Principal | undefined, raw: RawInput) => {
        const input = op.decode(raw)
        return Either.isLeft(input) ? Effect.fail(input.left) : Effect.map(op.run(service, p, input.right), render)
      }
      const withInput = (p: Principal | undefined, req: ApiRequest, params: Params) =>
        op.body === undefined
          ? call(p, new Raw(undefined, params, req))
          : Effect.flatMap(requireJson(req), (body) => call(p, new Raw(body, params, req)))
      const caller: Caller = op.caller
      routes.push({
        method: op.method,
        path: routerPath(op.path),
        ...(caller._tag === "Key"
          ? { handler: checks.key(caller.guard, withInput) }
          : caller._tag === "Account"
          ? { handler: checks.account(caller.roles, withInput), withMessage: true }
          : { handler: consoleOperation((req, params) => withInput(undefined, req, params)), withMessage: true }),
      })
    }
    return routes
  })

const bare: Answer = { status: 200, envelope: "bare" }

/** The raw input of one request; the query string is parsed only when an operation reads it. */
class Raw implements RawInput {
  constructor(readonly body: Json | undefined, readonly params: Params, private readonly req: ApiRequest) {}
  get query(): URLSearchParams {
    return this.req.query
  }
}
