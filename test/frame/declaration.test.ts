/**
 * The declaration enforces itself: a use case that fails with a code its operation does not declare does not
 * type-check (`tsc --noEmit` checks this file), and an operation that declares no `decode` decodes its path,
 * query and body by their Schemas.
 */
import { Context, Effect, Either, Schema } from "effect"
import { describe, expect, it } from "vitest"
import { InvalidState, NotFound, notFound } from "../../core/errors.ts"
import { operation, type RawInput } from "../../core/pipeline/operation.ts"
import { Limit } from "../../core/accounts/lists.ts"

class Things extends Context.Tag("test/Things")<Things, {
  readonly get: (id: string) => Effect.Effect<{ id: string }, NotFound>
}>() {}

const Thing = Schema.Struct({ id: Schema.String })

describe("the declared errors", () => {
  it("a use case may fail with the codes it declares", () => {
    const op = operation({
      name: "things.show",
      summary: "A thing.",
      method: "GET",
      path: "/v1/things/{id}",
      caller: { _tag: "Key", guard: { audience: "application" } },
      parameters: [{ name: "id", in: "path", description: "", schema: Schema.UUID, required: true }],
      body: undefined,
      output: Thing,
      errors: [NotFound],
      idempotent: false,
      service: Things,
      run: (things, _p, input) => things.get(input.params.id),
    })
    expect(op.errors).toEqual([NotFound])
  })

  it("an undeclared one does not type-check", () => {
    const op = operation({
      name: "things.show",
      summary: "A thing.",
      method: "GET",
      path: "/v1/things/{id}",
      caller: { _tag: "Key", guard: { audience: "application" } },
      parameters: [{ name: "id", in: "path", description: "", schema: Schema.UUID, required: true }],
      body: undefined,
      output: Thing,
      // A key operation's order of checks answers no 404 of its own: `not_found` must be declared.
      errors: [],
      idempotent: false,
      service: Things,
      // @ts-expect-error -- `not_found` is not declared
      run: (things, _p, input) => things.get(input.params.id),
    })
    expect(op.errors).toEqual([])
  })

  it("nor does one beside the declared ones", () => {
    const op = operation({
      name: "things.show",
      summary: "A thing.",
      method: "GET",
      path: "/v1/things/{id}",
      caller: { _tag: "Console" },
      parameters: [],
      body: undefined,
      output: Thing,
      errors: [NotFound],
      idempotent: false,
      service: Things,
      // @ts-expect-error -- `invalid_state` is not declared
      run: () => Effect.fail(new InvalidState({ status: "active" })),
    })
    expect(op.errors).toEqual([NotFound])
  })

  it("the caller kind's order of checks' own codes need no declaration", () => {
    // The console's order of checks answers `404 not_found` for any operation of its own.
    const op = operation({
      name: "console.things.show",
      summary: "A thing.",
      method: "GET",
      path: "/console/v1/things/{id}",
      caller: { _tag: "Console" },
      parameters: [],
      body: undefined,
      output: Thing,
      errors: [],
      idempotent: false,
      service: Things,
      run: () => Effect.fail(notFound),
    })
    expect(op.errors).toEqual([])
  })
})

describe("the input", () => {
  it("a use case that takes anything but the decoded input needs its own decode", () => {
    // @ts-expect-error -- `decode` is missing: nothing makes the `string` this use case takes
    const op = operation({
      name: "things.show",
      summary: "A thing.",
      method: "GET",
      path: "/v1/things/{id}",
      caller: { _tag: "Key", guard: { audience: "application" } },
      parameters: [{ name: "id", in: "path", description: "", schema: Schema.UUID, required: true }],
      body: undefined,
      output: Thing,
      errors: [NotFound],
      idempotent: false,
      service: Things,
      run: (things, _p, id: string) => things.get(id),
    })
    expect(op.errors).toEqual([NotFound])
  })
})

const raw = (over: Partial<RawInput>): RawInput => ({
  body: undefined,
  params: {},
  query: new URLSearchParams(),
  idempotencyKey: undefined,
  baseUrl: "http://localhost",
  ...over,
})

describe("the default decoder", () => {
  const op = operation({
    name: "console.things.update",
    summary: "Updates a thing.",
    method: "POST",
    path: "/console/v1/things/{id}",
    caller: { _tag: "Console" },
    parameters: [
      { name: "id", in: "path", description: "", schema: Schema.UUID, required: true },
      { name: "limit", in: "query", description: "", schema: Limit(), required: false },
    ],
    body: Schema.Struct({ name: Schema.String }),
    output: Thing,
    errors: [],
    idempotent: false,
    service: Things,
    run: (_t, _p, input) => Effect.succeed({ id: `${input.params.id} ${input.body.name} ${input.query.limit ?? 0}` }),
  })
  const id = "6f9619ff-8b86-4011-b42d-00c04fc964ff"

  it("decodes the path, the declared query and the body", () => {
    const decoded = op.decode(
      raw({ params: { id }, query: new URLSearchParams("limit=5&other=x"), body: { name: "a" } }),
    )
    expect(Either.isRight(decoded) && decoded.right.body).toEqual({ name: "a" })
    expect(Either.isRight(decoded) && decoded.right.query).toEqual({ limit: 5 })
  })

  it("a path value its Schema refuses names nothing: 404", () => {
    for (const bad of ["not-a-uuid", "\u0000", "", "x".repeat(5000)]) {
      const decoded = op.decode(raw({ params: { id: bad }, body: { name: "a" } }))
      expect(Either.isLeft(decoded) && decoded.left._tag).toBe("not_found")
    }
  })

  it("a refused query value and body field are one 400 naming both", () => {
    const decoded = op.decode(raw({ params: { id }, query: new URLSearchParams("limit=0"), body: { name: 1 } }))
    expect(Either.isLeft(decoded) && decoded.left._tag).toBe("invalid_request")
    expect(Either.isLeft(decoded) && (decoded.left as { errors?: unknown }).errors).toEqual({
      limit: "invalid",
      name: "invalid",
    })
  })

  it("a query parameter given twice, or holding what no store holds, is refused", () => {
    for (const query of ["limit=1&limit=2", "limit=%00"]) {
      const decoded = op.decode(raw({ params: { id }, query: new URLSearchParams(query), body: { name: "a" } }))
      expect(Either.isLeft(decoded) && (decoded.left as { errors?: unknown }).errors).toEqual({ limit: "invalid" })
    }
  })
})
