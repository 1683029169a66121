/**
 * The route table from operation declarations: each operation's route runs its caller's steps
 * (core/pipeline/checks.ts), then its use case, and renders its answer. Account-API operations are also called
 * by name (`POST /v1/operations/{name}`), which answers exactly as the route would.
 */
import { Effect } from "effect"
import { callByNameOperation } from "../accounts/catalogue.ts"
import { isPage } from "../accounts/lists.ts"
import { isAccountOperation } from "./catalogue.ts"
import { type ChecksSettings, makeChecks, type Ready, stepsOf } from "./checks.ts"
import type { Route } from "./handler.ts"
import { type Answer, type AnyOperation, isAnsweredWith } from "./operation.ts"
import { type ApiAnswer, ok } from "./request.ts"

/** `/v1/verify/{id}` (OpenAPI) as the router writes it: `/v1/verify/:id`. */
export const routerPath = (path: string): string => path.replace(/\{(\w+)\}/g, ":$1")

const bare: Answer = { status: 200, envelope: "bare" }

const renderWith = (answer: Answer) =>
  answer.envelope === "bare" ? (output: unknown) => ok(output, answer.status) : (output: unknown) =>
    // A list answers `{ data, next_cursor }`: its use case returns both (core/accounts/lists.ts).
    isPage(output)
      ? ok({ data: output.data, next_cursor: output.next_cursor }, answer.status)
      : ok({ data: output }, answer.status)

/** The declared answer, or the other success status a use case chose (`answeredWith`: a record already held). */
const renderOf = (answer: Answer) => {
  const declared = renderWith(answer)
  return (output: unknown) =>
    isAnsweredWith(output) ? renderWith({ ...answer, status: output.status })(output.output) : declared(output)
}

/** An operation with its service, looked up once, in hand. */
const readyOf = (op: AnyOperation): Effect.Effect<Ready, never, any> =>
  Effect.map(op.service, (service): Ready => {
    // An operation that answers bytes (`produces`) returns its whole answer: status, headers, body.
    const render = op.produces !== undefined ? (answer: unknown) => answer as ApiAnswer : renderOf(op.answer ?? bare)
    const locate = op.locate
    const vet = op.vet
    const secretOf = op.secretOf
    return {
      op,
      run: secretOf === undefined
        ? (p, input) => Effect.map(op.run(service, p, input), render)
        : (p, input) =>
          Effect.map(op.run(service, p, input), (output) => {
            const answer = render(output)
            const secret = secretOf(isAnsweredWith(output) ? output.output : output)
            return secret === undefined ? answer : { ...answer, secretOf: secret }
          }),
      locate: locate === undefined ? undefined : (p, params) => locate(service, p, params),
      vet: vet === undefined ? undefined : (p, input) => vet(service, p, input),
    }
  })

/**
 * The routes of some declared operations, built once with their services and the order of checks in hand
 * (nothing is looked up per request).
 */
export const routesOf = (operations: ReadonlyArray<AnyOperation>, settings: ChecksSettings) =>
  Effect.gen(function* () {
    const checks = yield* makeChecks(settings)
    const ready = yield* Effect.forEach(operations.filter((op) => op.name !== callByNameOperation.name), readyOf)
    const routes: Array<Route<any>> = ready.map((r): Route<any> => {
      const steps = stepsOf(checks.callers, r.op.caller)
      return {
        name: r.op.name,
        method: r.op.method,
        path: routerPath(r.op.path),
        handler: steps.admit(r.op.caller, steps.own(r)),
        withMessage: steps.withMessage,
      }
    })
    if (operations.some((op) => op.name === callByNameOperation.name)) {
      const op = callByNameOperation
      const steps = checks.callers.Account
      routes.push({
        name: op.name,
        method: op.method,
        path: routerPath(op.path),
        handler: steps.admit(op.caller, checks.callByName(ready.filter((r) => isAccountOperation(r.op)))),
        withMessage: steps.withMessage,
      })
    }
    return routes
  })
