/**
 * How a catalogue error is declared: a Schema.TaggedError whose tag is the wire `error` code and whose fields
 * are the extra body fields, with its HTTP status and the headers it sets written beside it (a field that
 * becomes a header never appears in the body). Each product declares its codes in `core/<product>/errors.ts`;
 * `core/errors.ts` merges them into the one catalogue.
 */
import { Schema } from "effect"

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
}

/**
 * A catalogue error class, built without a stack trace. These are answers, not faults: nothing reads their
 * stack, and capturing one (the class chain is deep) cost about 10 µs each, more than the rest of a refused
 * request (bench/dispatch.ts). Defects keep their stacks.
 */
export const ApiErrorClass =
  <Self>() => <Tag extends string, Fields extends Schema.Struct.Fields>(tag: Tag, fields: Fields, spec: ErrorSpec) => {
    const Base = Schema.TaggedError<Self>()(tag, fields)
    return class extends (Base as new (...args: Array<any>) => object) {
      static readonly status = spec.status
      static readonly headerFields = spec.headers ?? {}
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
    } as unknown as typeof Base & { readonly status: number; readonly headerFields: Readonly<Record<string, HeaderOf>> }
  }

export const Message = { message: Schema.optional(Schema.String) }
export const Status = Schema.String
export const Fields = Schema.Record({ key: Schema.String, value: Schema.Unknown })
