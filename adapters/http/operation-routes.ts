/**
 * Routes from operation declarations: step 4 decodes, one use case runs, the answer is rendered. Account-API
 * operations run the account steps of core/pipeline/account.ts, by route and by name (`POST
 * /v1/operations/{name}`, which answers exactly as the route would).
 */
import { Effect, Either } from "effect"
import type { AccountPrincipal, Principal } from "../../core/pipeline/authenticate.ts"
import { type AccountCall, makeAccountSteps, roleRefusal } from "../../core/pipeline/account.ts"
import {
  type CallByName,
  callByNameOperation,
  splitFlatInput,
  unknownOperation,
} from "../../core/accounts/catalogue.ts"
import { isPage } from "../../core/accounts/lists.ts"
import { type ApiAnswer, type ApiRequest, ok } from "../../core/pipeline/request.ts"
import type { Json } from "../../core/shared/json.ts"
import type { Answer, AnyOperation, Caller, RawInput } from "../../core/pipeline/operation.ts"
import { PlatformConfig } from "../config.ts"
import { consoleOperation, makeOperations, requireJson, type Route } from "./operation.ts"
import type { Params } from "./router.ts"

/** `/v1/verify/{id}` (OpenAPI) as the router writes it: `/v1/verify/:id`. */
export const routerPath = (path: string): string => path.replace(/\{(\w+)\}/g, ":$1")

/** An account operation after its role check: the account steps, then its answer rendered. */
type AccountRunner = (p: AccountPrincipal, call: AccountCall) => Effect.Effect<ApiAnswer, unknown, any>

/**
 * The routes of some declared operations, built once with their services and the order of checks in hand
 * (nothing is looked up per request).
 */
export const routesOf = (operations: ReadonlyArray<AnyOperation>) =>
  Effect.gen(function* () {
    const checks = yield* makeOperations
    const accountSteps = yield* makeAccountSteps
    const config = yield* PlatformConfig
    const routes: Array<Route<any>> = []
    const byName = new Map<string, { op: AnyOperation; runner: AccountRunner }>()
    const baseUrlOf = (req: ApiRequest) => config.publicUrl ?? `http://${req.header("host") ?? "localhost"}`
    const rawOf = (body: Json | undefined, params: Params, req: ApiRequest) => new Raw(body, params, req, baseUrlOf)

    for (const op of operations) {
      if (op.name === callByNameOperation.name) continue
      const service = yield* op.service
      // An operation that answers bytes (`produces`) returns its whole answer: status, headers, body.
      const render = op.produces !== undefined ? (answer: unknown) => answer as ApiAnswer : renderOf(op.answer ?? bare)
      const caller: Caller = op.caller
      /** Reads no body, or the body as a JSON object (step 4's first check), then `then`. */
      const withBody = <A, E, R>(req: ApiRequest, then: (body: Json | undefined) => Effect.Effect<A, E, R>) =>
        op.body === undefined ? then(undefined) : Effect.flatMap(requireJson(req), then)
      if (caller._tag === "Account") {
        const locate = op.locate
        const steps = accountSteps(
          op,
          (p, input) => op.run(service, p, input),
          locate === undefined ? undefined : (p, params) => locate(service, p, params),
        )
        const runner: AccountRunner = (p, call) => Effect.map(steps(p, call), render)
        byName.set(op.name, { op, runner })
        routes.push({
          method: op.method,
          path: routerPath(op.path),
          // The body is read after the 404 step (DECISIONS 10).
          handler: checks.account(caller.roles, (p, req, params) =>
            runner(p, { params, input: withBody(req, (b) => Effect.succeed(rawOf(b, params, req))) })),
          withMessage: true,
        })
        continue
      }
      /** Step 4's decoding, then the use case: no extra Effect step when the input decodes (the usual case). */
      const call = (p: Principal | undefined, raw: RawInput) => {
        const input = op.decode(raw)
        return Either.isLeft(input) ? Effect.fail(input.left) : Effect.map(op.run(service, p, input.right), render)
      }
      const withInput = (p: Principal | undefined, req: ApiRequest, params: Params) =>
        withBody(req, (b) =>
          call(p, rawOf(b, params, req)))
      routes.push(
        caller._tag === "Key"
          ? { method: op.method, path: routerPath(op.path), handler: checks.key(caller.guard, withInput) }
          : caller._tag === "Partner"
          ? { method: op.method, path: routerPath(op.path), handler: checks.partner(withInput) }
          : caller._tag === "Public"
          ? {
            method: op.method,
            path: routerPath(op.path),
            handler: (req, params) => withInput(undefined, req, params),
          }
          : {
            method: op.method,
            path: routerPath(op.path),
            handler: consoleOperation((req, params) => withInput(undefined, req, params)),
            withMessage: true,
          },
      )
    }

    if (operations.some((op) => op.name === callByNameOperation.name)) {
      // 404 unknown_operation and 403 before the body is read; then its path's ids, the route's 404 step, and
      // only then the fields the operation does not take (DECISIONS 10).
      const callByName: CallByName = (p, name, req) => {
        const found = byName.get(name)
        if (found === undefined) return Effect.fail(unknownOperation(name, [...byName.keys()]))
        const refused = roleRefusal((found.op.caller as { roles: ReadonlyArray<string> }).roles, p)
        if (refused !== undefined) return Effect.fail(refused)
        return Effect.flatMap(
          Effect.flatMap(requireJson(req), (flat) => splitFlatInput(found.op, flat)),
          ({ params, query, body, refused }) =>
            found.runner(p, {
              params,
              input: refused !== undefined
                ? Effect.fail(refused)
                : Effect.succeed(new Raw(body, params, req, baseUrlOf, query)),
            }),
        )
      }
      const op = callByNameOperation
      routes.push({
        method: op.method,
        path: routerPath(op.path),
        handler: checks.account(
          op.caller.roles,
          (p, req, params) => callByName(p, params.name, req),
        ),
        withMessage: true,
      })
    }
    return routes
  })

const bare: Answer = { status: 200, envelope: "bare" }

const renderOf = (answer: Answer) =>
  answer.envelope === "bare" ? (output: unknown) => ok(output, answer.status) : (output: unknown) =>
    // A list answers `{ data, next_cursor }`: its use case returns both (core/accounts/lists.ts).
    isPage(output)
      ? ok({ data: output.data, next_cursor: output.next_cursor }, answer.status)
      : ok({ data: output }, answer.status)

/** The raw input of one request; the query string is parsed only when an operation reads it. */
class Raw implements RawInput {
  constructor(
    readonly body: Json | undefined,
    readonly params: Params,
    private readonly req: ApiRequest,
    private readonly base: (req: ApiRequest) => string,
    private readonly given?: URLSearchParams,
  ) {}
  get query(): URLSearchParams {
    return this.given ?? this.req.query
  }
  get idempotencyKey(): string | undefined {
    return this.req.header("idempotency-key")
  }
  get baseUrl(): string {
    return this.base(this.req)
  }
  header(name: string): string | undefined {
    return this.req.header(name)
  }
}
