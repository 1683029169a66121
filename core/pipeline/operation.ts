/**
 * An operation, declared once as data: its name, method and path, who may call it, its input (Schemas,
 * decoded at step 4 of the order of checks: by default with those very Schemas), its output Schema, the
 * catalogue codes it may answer, whether `Idempotency-Key` applies, and its use case. The declaration holds
 * itself to its word: the use case may fail only with the codes it declares (and its caller kind's order of
 * checks' own), so the OpenAPI document (core/pipeline/openapi.ts), the route table and the typed client
 * (adapters/http/client.ts), which all come from these values, say what the operation does.
 */
import type { Context, Effect, Either, Schema } from "effect"
import type { ApiError } from "../errors.ts"
import type { AnyErrorClass } from "../shared/api-error.ts"
import type { CheckErrorOf } from "./caller-errors.ts"
import { decodeInput } from "./decode.ts"
import type { AccountPrincipal, Guard, KeyPrincipal, PartnerPrincipal } from "./authenticate.ts"
import type { Json } from "../shared/json.ts"
import type { Role } from "../keys/model.ts"

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE"

/**
 * Who may call an operation, and the order of checks that goes with it: an API key holding a scope (steps 1
 * to 3 of spec Section 5), an account token (the account API, DECISIONS 10), or the operator's console token
 * (DECISIONS 2: no rate limit, no idempotency, errors with a `message`).
 */
export type Caller =
  | { readonly _tag: "Key"; readonly guard: Guard }
  | { readonly _tag: "Account"; readonly roles: ReadonlyArray<Role> }
  /** A partner key (either mode) on the Partner API (DECISIONS 13). */
  | { readonly _tag: "Partner" }
  | { readonly _tag: "Console" }
  /** Anyone, without a credential: no rate limit, no idempotency (a logo behind its content hash). */
  | { readonly _tag: "Public" }

/** Who the use case learns is calling: the key's principal, the token's, or nobody in particular (console). */
export type PrincipalOf<C extends Caller> = C extends { _tag: "Key" } ? KeyPrincipal
  : C extends { _tag: "Account" } ? AccountPrincipal
  : C extends { _tag: "Partner" } ? PartnerPrincipal
  : undefined

const AnsweredMark: unique symbol = Symbol.for("sa-messaging/AnsweredWith")

/**
 * A success answered with another status than the declared one: an operation declared `201` that found the record
 * already there answers `200` (DECISIONS 17: a sender domain already held). The document lists both when the
 * operation's `answer` names the other in `also`.
 */
export interface AnsweredWith<A> {
  readonly [AnsweredMark]: true
  readonly status: 200 | 201
  readonly output: A
}

export const answeredWith = <A>(status: 200 | 201, output: A): AnsweredWith<A> => ({
  [AnsweredMark]: true,
  status,
  output,
})

export const isAnsweredWith = (o: unknown): o is AnsweredWith<unknown> =>
  typeof o === "object" && o !== null && (o as Record<symbol, unknown>)[AnsweredMark] === true

/** How a success is written: the object itself (key routes), or `{ data }` (account API, console). */
export interface Answer {
  readonly status: 200 | 201
  readonly envelope: "bare" | "data"
  /** The other success status the use case may choose with `answeredWith` (the document lists it too). */
  readonly also?: 200 | 201
}

/** A catalogue error class (for the document: its code and status). */
export type ErrorClass = AnyErrorClass

/**
 * A path or query parameter, decoded by its Schema from the text of the path or query (a number's Schema
 * decodes from a string: `Schema.NumberFromString`, `Limit()`). A path value its Schema refuses names nothing:
 * `404 not_found`; a query value it refuses is `400 invalid_request` naming the parameter.
 */
export interface Parameter<Name extends string = string, S extends Schema.Schema.Any = Schema.Schema<any, any>> {
  readonly name: Name
  readonly in: "path" | "query"
  readonly description: string
  readonly schema: S
  readonly required: boolean
}

/** The decoded query of an operation's declared query parameters (each one optional: absent when not given). */
export type QueryOf<P extends ReadonlyArray<Parameter<string, Schema.Schema.Any>>> = {
  readonly [K in P[number] as K["in"] extends "query" ? K["name"] : never]?: Schema.Schema.Type<K["schema"]>
}

/** The body's decoded type (undefined for an operation that reads none). */
export type BodyOf<B> = B extends Schema.Schema.Any ? Schema.Schema.Type<B> : undefined

/**
 * The input of an operation that declares no `decode`: its body, path and query, each decoded by its declared
 * Schema, and the request's raw input (base URL, `Idempotency-Key`, headers) beside them.
 */
export interface Decoded<Body = unknown, Query = Readonly<Record<string, unknown>>> {
  readonly body: Body
  /** The path's values, each one its parameter's Schema accepted. */
  readonly params: Readonly<Record<string, string>>
  readonly query: Query
  readonly raw: RawInput
}

/** The errors a use case of caller `C` with declared `errors` may fail with. */
export type ErrorsOf<Errors extends ReadonlyArray<ErrorClass>, C extends Caller> =
  | InstanceType<Errors[number]>
  | CheckErrorOf<C["_tag"]>

/** What step 4 hands over: the parsed body (a JSON object; absent on reads), the path and the query. */
export interface RawInput {
  readonly body: Json | undefined
  readonly params: Readonly<Record<string, string>>
  readonly query: URLSearchParams
  /** The request's `Idempotency-Key`, if any (an approval is bound to it). */
  readonly idempotencyKey: string | undefined
  /** `{base_url}` of this request (`human_action` links into the console under it). */
  readonly baseUrl: string
  /** A request header by its lower-case name (a logo's `If-None-Match`). */
  readonly header?: (name: string) => string | undefined
  /** The body as it was sent (a signed webhook: its signature covers these characters). */
  readonly text?: string | undefined
}

export interface Operation<
  Service,
  Input,
  Output,
  R = never,
  Name extends string = string,
  Path extends string = string,
  C extends Caller = Caller,
  Errors extends ReadonlyArray<ErrorClass> = ReadonlyArray<ErrorClass>,
> {
  /** Stable name (`verify.start`): the OpenAPI operationId and the typed client's method. */
  readonly name: Name
  readonly summary: string
  readonly method: Method
  /** OpenAPI form: `/v1/verify/{id}`; also served under `/api/v1`. */
  readonly path: Path
  readonly caller: C
  /** How a success is written (default: 200, the object itself). */
  readonly answer?: Answer
  readonly parameters: ReadonlyArray<Parameter>
  /** The body as documented; undefined for operations that read none (the body is then not parsed at all). */
  readonly body: Schema.Schema<any, any> | undefined
  /**
   * Step 4: the request into the use case's input, or the catalogue error. Declared by default from `body` and
   * `parameters` (`decodeInput` of core/pipeline/decode.ts); written by hand only where measured to matter,
   * held to `body` by a property test (test/core/verify/operations.test.ts).
   */
  readonly decode: (raw: RawInput) => Either.Either<Input, ApiError>
  readonly output: Schema.Schema<Output, any>
  /** The media types of a success that is bytes, not JSON (a logo): the document lists them, binary. */
  readonly produces?: ReadonlyArray<string>
  /** The account API's catalogue: what the operation answers, in a sentence (`GET /v1/operations`' `output`). */
  readonly returns?: string
  /**
   * The catalogue's `idempotent` (DECISIONS 10, 16): whether calling it twice with the same input does what one
   * call does. True unless said (reads included); `Idempotency-Key` applies to writes either way.
   */
  readonly repeatable?: boolean
  /**
   * Codes of its own it may answer, beyond the order of checks' shared ones: `run` and `locate` fail with
   * these (and the caller kind's checks: core/pipeline/caller-errors.ts) and nothing else.
   */
  readonly errors: Errors
  /** `Idempotency-Key` applies (writes). */
  readonly idempotent: boolean
  /** The use case's service, looked up once when the routes are built. */
  readonly service: Context.Tag<any, Service>
  readonly run: (
    service: Service,
    principal: PrincipalOf<C>,
    input: Input,
  ) => Effect.Effect<Output | AnsweredWith<NoInfer<Output>>, NoInfer<ErrorsOf<Errors, C>>, R>
  /**
   * The operation's own steps before its input is read: an account operation's 404 step (the record its path
   * names is the token's account's, DECISIONS 10: 404 before the operation's 400s); a key operation's channel
   * state (DECISIONS 7.2: `whatsapp_not_enabled` before `invalid_json`).
   */
  readonly locate?: (
    service: Service,
    principal: PrincipalOf<C>,
    params: Readonly<Record<string, string>>,
  ) => Effect.Effect<unknown, NoInfer<ErrorsOf<Errors, C>>, R>
  /**
   * An account operation's own checks of its decoded input that come before `428 approval_required` (DECISIONS 10:
   * approval last), and what its approval asks: `{ say }`, the sentence `human_action` relays ("Approve adding
   * sara@shop.sa to the team."), or `false` when this call grants nothing and needs no approval (DECISIONS 17:
   * adding someone already in the team).
   */
  readonly vet?: (
    service: Service,
    principal: PrincipalOf<C>,
    input: Input,
  ) => Effect.Effect<Vetted, NoInfer<ErrorsOf<Errors, C>>, R>
  /**
   * The id of what was made when a success carries a secret shown once (a team member's `invitation_url`): a
   * replay under the same `Idempotency-Key` answers `409 idempotency_secret_not_replayable` with that `id` instead
   * of the secret (DECISIONS 10).
   */
  readonly secretOf?: (output: Output) => string | undefined
}

/** What an operation's `vet` lets through: the approval's sentence, or no approval needed. */
export type Vetted = { readonly say: string } | false

/** An operation of any types, as the route table and the document take them. */
export type AnyOperation = Operation<any, any, any, any, string, string, any, any>

/** An operation as declared: `decode` may be left out, to decode the body and parameters by their Schemas. */
export type Declaration<
  Service,
  Input,
  Output,
  R,
  Name extends string,
  Path extends string,
  C extends Caller,
  Errors extends ReadonlyArray<ErrorClass>,
> = Omit<Operation<Service, Input, Output, R, Name, Path, C, Errors>, "decode" | "body" | "parameters"> & {
  readonly parameters: ReadonlyArray<Parameter<string, Schema.Schema.Any>>
  readonly body: Schema.Schema.Any | undefined
  readonly decode?: (raw: RawInput) => Either.Either<Input, ApiError>
}

/**
 * Declares an operation, checking its parts against each other: the use case fails only with the declared
 * `errors` (and its caller kind's checks'), and without a `decode` its input is `Decoded`: the body and the
 * parameters decoded by their Schemas.
 */
export const operation = <
  Service,
  const Body extends Schema.Schema.Any | undefined,
  const Params extends ReadonlyArray<Parameter<string, Schema.Schema.Any>>,
  Input = Decoded<BodyOf<Body>, QueryOf<Params>>,
  Output = unknown,
  R = never,
  const Name extends string = string,
  const Path extends string = string,
  const C extends Caller = Caller,
  const Errors extends ReadonlyArray<ErrorClass> = readonly [],
>(
  op:
    & Declaration<Service, Input, Output, R, Name, Path, C, Errors>
    & { readonly body: Body; readonly parameters: Params }
    // A use case that takes anything but `Decoded` needs the `decode` that makes it.
    & ([Decoded<BodyOf<Body>, QueryOf<Params>>] extends [Input] ? unknown
      : { readonly decode: (raw: RawInput) => Either.Either<Input, ApiError> }),
): Operation<Service, Input, Output, R, Name, Path, C, Errors> =>
  (op.decode === undefined
    ? { ...op, decode: decodeInput(op.body, op.parameters, op.caller._tag === "Account") }
    : op) as unknown as Operation<Service, Input, Output, R, Name, Path, C, Errors>

/** The path parameters of an OpenAPI path: `/v1/verify/{id}/resend` has `{ id: string }`. */
export type PathParams<Path extends string> = Path extends `${string}{${infer P}}${infer Rest}`
  ? { readonly [K in P]: string } & PathParams<Rest>
  : unknown
