/**
 * A page's form read as the console operation it stands for reads its body: the operation's own Schema decodes
 * it (core/pipeline/decode.ts), so every bound is the operation's and a refused field is the same
 * `invalid_request` with its `fields` (shown by the frame as the form's errors).
 */
import { Effect, Either } from "effect"
import { decodeWith } from "../../core/pipeline/decode.ts"
import type { AnyOperation } from "../../core/pipeline/operation.ts"

/** The declared body Schema's decoder of the operation named `name` among `operations`. */
export const bodyDecoder = (operations: ReadonlyArray<AnyOperation>, name: string) => {
  const op = operations.find((o) => o.name === name)
  const schema = (op as { readonly body?: unknown } | undefined)?.body
  if (schema === undefined) throw new Error(`The console page needs the operation ${name}, which takes no body.`)
  const decode = decodeWith(schema as any)
  return (given: Record<string, unknown>) => {
    const decoded = decode(given)
    return Either.isLeft(decoded) ? Effect.fail(decoded.left) : Effect.succeed(decoded.right as any)
  }
}

/** A form's fields as a body: texts as given (an empty one is not given), each checkbox named here as a boolean. */
export const formBody = (
  form: URLSearchParams,
  texts: ReadonlyArray<string>,
  checkboxes: ReadonlyArray<string> = [],
): Record<string, unknown> => {
  const body: Record<string, unknown> = {}
  for (const name of texts) {
    const value = form.get(name)
    if (value !== null && value.trim() !== "") body[name] = value
  }
  for (const name of checkboxes) body[name] = form.has(name)
  return body
}
