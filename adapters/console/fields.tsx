/** @jsxImportSource preact */
/**
 * A form shown again with its refusals beside their fields: a page runs the operation, and when its Schema (or
 * its use case) refuses fields with `400 invalid_request`, the page answers the same form with what was typed and
 * each field's message under it (`aria-invalid`, `aria-describedby`), status 400, nothing changed.
 */
import { Effect } from "effect"
import type { ComponentChildren } from "preact"
import { isApiError } from "../../core/errors.ts"

export type FieldErrors = Readonly<Record<string, string>>

/** The fields an `invalid_request` refused, by name; undefined for any other failure. */
export const refusedFields = (e: unknown): FieldErrors | undefined => {
  if (!isApiError(e) || e._tag !== "invalid_request") return undefined
  const fields = (e as { readonly fields?: Record<string, string> }).fields
  return fields === undefined || Object.keys(fields).length === 0 ? undefined : fields
}

/** Runs `effect`; a refusal of fields becomes `onRefused(fields)`, anything else fails as it did. */
export const orFormErrors = <A, E, R, B, E2, R2>(
  effect: Effect.Effect<A, E, R>,
  onRefused: (fields: FieldErrors) => Effect.Effect<B, E2, R2>,
): Effect.Effect<A | B, E | E2, R | R2> =>
  Effect.catchIf(
    effect,
    (e): e is E => refusedFields(e) !== undefined,
    (e) => onRefused(refusedFields(e)!),
  )

/** A labelled field with its hint and, when refused, its message (named by the field's `name`). */
export const Field = (
  { id, label, hint, error, children }: {
    id: string
    label: string
    hint?: string
    error?: string
    children: ComponentChildren
  },
) => (
  <div class={error === undefined ? "field" : "field invalid"}>
    <label for={id}>{label}</label>
    {children}
    {hint === undefined ? null : <p id={`${id}-hint`} class="hint">{hint}</p>}
    {error === undefined ? null : <p id={`${id}-error`} class="field-error text">{error}</p>}
  </div>
)

/** The `aria-*` attributes of a field's control: its hint, its refusal. */
export const described = (id: string, hint: boolean, error: string | undefined) => {
  const ids = [...(hint ? [`${id}-hint`] : []), ...(error === undefined ? [] : [`${id}-error`])]
  return {
    "aria-describedby": ids.length === 0 ? undefined : ids.join(" "),
    "aria-invalid": error === undefined ? undefined : ("true" as const),
  }
}

/** A summary of the refusals at the top of a form shown again. */
export const RefusedSummary = ({ text }: { text: string }) => <p class="error" role="alert">{text}</p>
