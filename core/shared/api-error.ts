/**
 * How a catalogue error is declared: a Schema.TaggedError whose tag is the wire `error` code and whose fields
 * are the extra body fields, with its HTTP status and the headers it sets written beside it (a field that
 * becomes a header never appears in the body). Each product declares its codes in `core/<product>/errors.ts`
 * and lists them in its module's `errors`; the catalogue is the fold of the products list (adapters/products.ts
 * `errorsOf`). Rendering an error needs no index: the class carries its status, headers and body fields.
 */
import { type Cause, Schema } from "effect"

/** A header an error sets from one of its fields: the field's value gives the header's name and value. */
export type HeaderOf = (value: unknown) => readonly [name: string, value: string]

export interface ErrorSpec {
  readonly status: number
  /** Fields sent as headers instead of in the body. */
  readonly headers?: Readonly<Record<string, HeaderOf>>
}

/** What the catalogue reads from an error class beside its schema. */
export interface CatalogueEntry {
  readonly _tag: string
  readonly status: number
  readonly headerFields: Readonly<Record<string, HeaderOf>>
  readonly fields: Readonly<Record<string, unknown>>
  /** The fields of the wire body: the schema's, less `_tag` and those sent as headers. */
  readonly bodyFields: ReadonlyArray<string>
}

/** Marks every instance of a catalogue class (on the prototype: nothing per error). */
export const CatalogueErrorId: unique symbol = Symbol.for("sa-messaging/CatalogueError")

/** Any catalogue error (of any product): its wire code; its class is its entry (`entryOfError`). */
export interface AnyApiError extends Cause.YieldableError {
  readonly _tag: string
}

/** Any catalogue error class. */
export type AnyErrorClass = CatalogueEntry & (new (...args: Array<any>) => AnyApiError)

/** Whether `u` is an instance of a catalogue class (of any product). */
export const isCatalogueError = (u: unknown): u is AnyApiError =>
  typeof u === "object" && u !== null && (u as { [CatalogueErrorId]?: true })[CatalogueErrorId] === true

/** The entry of an error's class. */
export const entryOfError = (e: AnyApiError): CatalogueEntry => e.constructor as unknown as CatalogueEntry

/**
 * A catalogue error class, built without a stack trace. These are answers, not faults: nothing reads their
 * stack, and capturing one (the class chain is deep) cost about 10 µs each, more than the rest of a refused
 * request (bench/dispatch.ts). Defects keep their stacks.
 */
export const ApiErrorClass =
  <Self>() => <Tag extends string, Fields extends Schema.Struct.Fields>(tag: Tag, fields: Fields, spec: ErrorSpec) => {
    const Base = Schema.TaggedError<Self>()(tag, fields)
    const headerFields = spec.headers ?? {}
    const Class = class extends (Base as new (...args: Array<any>) => object) {
      static readonly status = spec.status
      static readonly headerFields = headerFields
      static readonly bodyFields = Object.keys(fields).filter((k) => k !== "_tag" && !(k in headerFields))
      // deno-lint-ignore constructor-super -- it does call super(), inside try so the limit is always restored
      constructor(...args: Array<any>) {
        const limit = Error.stackTraceLimit
        Error.stackTraceLimit = 0
        try {
          super(args[0], args[1])
        } finally {
          Error.stackTraceLimit = limit
        }
      }
    }
    Object.defineProperty(Class.prototype, CatalogueErrorId, { value: true })
    return Class as unknown as
      & typeof Base
      & {
        readonly status: number
        readonly headerFields: Readonly<Record<string, HeaderOf>>
        readonly bodyFields: ReadonlyArray<string>
      }
  }

export const Message = { message: Schema.optional(Schema.String) }
export const Status = Schema.String
export const Fields = Schema.Record({ key: Schema.String, value: Schema.Unknown })
