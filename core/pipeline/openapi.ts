/**
 * The OpenAPI 3.1 document, derived from the operation declarations and the error catalogue (never written
 * by hand): each operation's parameters, body and output Schemas as JSON Schema (Effect's JSONSchema), its
 * answers by status with the body of every code it may answer.
 */
import { JSONSchema, Schema, SchemaAST } from "effect"
import type { EventDeclaration } from "../shared/event.ts"
import type { ScopeDeclaration } from "../shared/scope.ts"
import { callerChecks, idempotencyChecks } from "./caller-errors.ts"
import type { AnyOperation, ErrorClass } from "./operation.ts"

/** The API version label of the spec (Section 9). */
export const apiVersion = "2026-09"

/** What the order of checks of the operation's caller kind answers by itself. */
const checksOf = (op: AnyOperation): ReadonlyArray<ErrorClass> =>
  callerChecks[op.caller._tag as keyof typeof callerChecks] ?? []

/** The wire body of one code: `{ error: code, ...its body fields }`. */
const errorBodySchema = (c: ErrorClass): Schema.Schema<any, any> => {
  const fields: Record<string, Schema.Struct.Field> = { error: Schema.Literal(c._tag) }
  for (const name of c.bodyFields) fields[name] = c.fields[name] as Schema.Struct.Field
  return Schema.Struct(fields).annotations({ identifier: `Error_${c._tag}` }) as unknown as Schema.Schema<any, any>
}

const headerNames: Partial<Record<string, ReadonlyArray<string>>> = {
  too_many_requests: ["Retry-After"],
  store_unavailable: ["Retry-After"],
  invite_wait: ["Retry-After"],
  insufficient_scope: ["WWW-Authenticate"],
}

/**
 * Effect marks `unknown` and `any` as `$id: "/schemas/unknown"` wherever they occur; an id may be defined
 * once in a document, so those marks (which add nothing) are dropped.
 */
const withoutIds = <A>(value: A): A => {
  if (Array.isArray(value)) return value.map(withoutIds) as A
  if (typeof value !== "object" || value === null) return value
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(value)) {
    if (k === "$id" && typeof v === "string" && v.startsWith("/schemas/")) continue
    out[k] = withoutIds(v)
  }
  return out as A
}

export interface OpenApiDocument {
  readonly openapi: "3.1.0"
  readonly info: Record<string, unknown>
  readonly tags?: ReadonlyArray<Record<string, unknown>>
  readonly paths: Record<string, Record<string, unknown>>
  /** The events deliveries carry (OpenAPI 3.1 `webhooks`): each one's envelope with its `data`. */
  readonly webhooks?: Record<string, Record<string, unknown>>
  readonly components: Record<string, unknown>
}

/** What the products list adds to the document besides its operations. */
export interface DocumentCatalogue {
  /** The tags, in the list's order (`tags` of the document). */
  readonly tags: ReadonlyArray<{ readonly name: string; readonly description: string }>
  /** The tag of an operation (its product's). */
  readonly tagOf: (op: AnyOperation) => string | undefined
  /** The declared key scopes (`components.schemas.Scope` lists them, `x-scopes` says what each includes). */
  readonly scopes: ReadonlyArray<ScopeDeclaration>
  /** The events the products fire (`webhooks` of the document). */
  readonly events?: ReadonlyArray<EventDeclaration>
}

const noCatalogue: DocumentCatalogue = { tags: [], tagOf: () => undefined, scopes: [] }

/** The document for `operations`, with `/api/v1` noted as an alias of every `/v1` path. */
export const openApiDocument = (
  operations: ReadonlyArray<AnyOperation>,
  catalogue: DocumentCatalogue = noCatalogue,
): OpenApiDocument => {
  const definitions: Record<string, JSONSchema.JsonSchema7> = {}
  const jsonSchema = (schema: Schema.Schema<any, any>) =>
    withoutIds(JSONSchema.fromAST(schema.ast, {
      definitions,
      definitionPath: "#/components/schemas/",
      target: "openApi3.1",
      // Unknown body fields are ignored, not refused.
      additionalPropertiesStrategy: "allow",
    }))
  const requestId = { description: "Every answer carries one; quote it to support.", schema: { type: "string" } }
  const paths: Record<string, Record<string, unknown>> = {}
  for (const op of operations) {
    const codes = [
      ...checksOf(op),
      ...(op.idempotent && op.caller._tag !== "Console" ? idempotencyChecks : []),
      ...op.errors,
    ]
    const byStatus = new Map<number, Array<ErrorClass>>()
    for (const c of codes) {
      const list = byStatus.get(c.status) ?? []
      if (!list.includes(c)) list.push(c)
      byStatus.set(c.status, list)
    }
    const answer = op.answer ?? { status: 200, envelope: "bare" }
    const output = jsonSchema(op.output)
    const success = (status: 200 | 201) => ({
      description: status === 201 ? "Created" : "OK",
      headers: { "X-Request-Id": requestId },
      content: op.produces !== undefined
        ? Object.fromEntries(op.produces.map((type) => [type, { schema: { type: "string", format: "binary" } }]))
        : {
          "application/json": {
            // `{ data }` (account API, console); a list's use case already answers `{ data, next_cursor }`.
            schema: answer.envelope === "bare" || isPageSchema(op.output)
              ? output
              : { type: "object", required: ["data"], properties: { data: output }, additionalProperties: false },
          },
        },
    })
    const responses: Record<string, unknown> = {
      [String(answer.status)]: success(answer.status),
      ...(answer.also === undefined ? {} : { [String(answer.also)]: success(answer.also) }),
    }
    for (const [status, classes] of [...byStatus].sort(([a], [b]) => a - b)) {
      const schemas = classes.map((c) => jsonSchema(errorBodySchema(c)))
      const headers: Record<string, unknown> = { "X-Request-Id": requestId }
      for (const c of classes) {
        for (const h of headerNames[c._tag] ?? []) headers[h] = { schema: { type: "string" } }
      }
      responses[String(status)] = {
        description: classes.map((c) => `\`${c._tag}\``).join(", "),
        headers,
        content: { "application/json": { schema: schemas.length === 1 ? schemas[0] : { oneOf: schemas } } },
      }
    }
    const parameters: Array<unknown> = op.parameters.map((p) => ({
      name: p.name,
      in: p.in,
      required: p.required,
      description: p.description,
      schema: jsonSchema(p.schema),
    }))
    if (op.idempotent) {
      parameters.push({
        name: "Idempotency-Key",
        in: "header",
        required: false,
        description: "1 to 128 printable ASCII characters, scoped to the key, kept 24 hours.",
        schema: { type: "string", minLength: 1, maxLength: 128 },
      })
    }
    const tag = catalogue.tagOf(op)
    ;(paths[op.path] ??= {})[op.method.toLowerCase()] = {
      operationId: op.name,
      summary: op.summary,
      ...(tag === undefined ? {} : { tags: [tag] }),
      security: op.caller._tag === "Key" || op.caller._tag === "Partner"
        ? [{ bearer: [] }, { apiKey: [] }]
        : op.caller._tag === "Account"
        ? [{ accountToken: [] }]
        : op.caller._tag === "Public"
        ? []
        : [{ consoleToken: [] }],
      ...(op.caller._tag === "Key" && op.caller.guard.scope ? { "x-scope": op.caller.guard.scope } : {}),
      ...(op.caller._tag === "Account" ? { "x-roles": op.caller.roles } : {}),
      ...(parameters.length > 0 ? { parameters } : {}),
      ...(op.body === undefined
        ? {}
        : { requestBody: { required: true, content: { "application/json": { schema: jsonSchema(op.body) } } } }),
      responses,
    }
  }
  const webhooks: Record<string, Record<string, unknown>> = {}
  for (const e of catalogue.events ?? []) {
    webhooks[e.name] = {
      post: {
        operationId: `event.${e.name}`,
        summary: e.summary,
        description:
          "Delivered to the endpoint with the Standard Webhooks headers (`webhook-id`, `webhook-timestamp`, `webhook-signature`); answer 2xx.",
        requestBody: {
          required: true,
          content: {
            "application/json": {
              schema: {
                type: "object",
                required: ["event", "data", "sent_at"],
                properties: {
                  event: { const: e.name },
                  data: jsonSchema(e.data),
                  sent_at: { type: "string", description: "Epoch milliseconds of the attempt, as digits" },
                  test: { const: true, description: "Present on console rehearsals only" },
                },
              },
            },
          },
        },
        responses: { "200": { description: "Received (any 2xx)" } },
      },
    }
  }
  if (catalogue.scopes.length > 0 && definitions.Scope !== undefined) {
    definitions.Scope = { ...definitions.Scope, enum: catalogue.scopes.map((d) => d.scope) } as JSONSchema.JsonSchema7
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Saudi messaging platform",
      version: apiVersion,
      description: "Every `/v1/...` path also answers under `/api/v1/...`, identically.",
    },
    ...(catalogue.tags.length > 0 ? { tags: catalogue.tags.map((t) => ({ ...t })) } : {}),
    ...(catalogue.scopes.length > 0
      ? {
        "x-scopes": catalogue.scopes.map((d) => ({
          scope: d.scope,
          includes: d.includes,
          connected_app_only: d.connectedApp === true,
          description: d.description,
        })),
      }
      : {}),
    paths,
    ...(Object.keys(webhooks).length > 0 ? { webhooks } : {}),
    components: {
      securitySchemes: {
        bearer: { type: "http", scheme: "bearer", description: "`Authorization: Bearer <API key>`" },
        apiKey: { type: "apiKey", in: "header", name: "x-api-key" },
        accountToken: {
          type: "http",
          scheme: "bearer",
          description: "`Authorization: Bearer <account token>` (`svc_acct_`, issued in the console)",
        },
        consoleToken: { type: "http", scheme: "bearer", description: "`Authorization: Bearer <CONSOLE_TOKEN>`" },
      },
      schemas: withoutIds(definitions),
    },
  }
}

/** A list's output: a struct with `data` and `next_cursor` (core/accounts/lists.ts `PageOf`). */
const isPageSchema = (schema: Schema.Schema<any, any>): boolean => {
  const ast = SchemaAST.isTransformation(schema.ast) ? schema.ast.to : schema.ast
  return SchemaAST.isTypeLiteral(ast) && ast.propertySignatures.some((p) => p.name === "next_cursor")
}
