/** What the dispatcher runs for a matched route: a handler of the request and the path's parameters. */
import type { Effect } from "effect"
import type { ApiAnswer, ApiRequest } from "./request.ts"

/** The path's parameters by name, decoded: `/v1/verify/:id` matched by `/v1/verify/abc` is `{ id: "abc" }`. */
export type Params = Readonly<Record<string, string>>

export type Handler<R> = (req: ApiRequest, params: Params) => Effect.Effect<ApiAnswer, unknown, R>

export interface Route<R> {
  readonly method: string
  /** The router's form: `/v1/verify/:id`. */
  readonly path: string
  readonly handler: Handler<R>
  /** The declared operation's name (`verify.start`): the request's span and metrics are named after it. */
  readonly name?: string
  /** Console and account-API routes answer every error with a `message`. */
  readonly withMessage?: boolean
}
