/**
 * The Documents port with pdf-lib (adapters/documents/pdf-render.ts), loaded on the first document: pdf-lib,
 * fontkit and the bidirectional algorithm cost every start 0.1 s of module loading on Node (issue 28), for a
 * proforma that most processes never render.
 */
import { Effect, Layer } from "effect"
import { Documents } from "../../ports/documents.ts"

let loading: Promise<typeof import("./pdf-render.ts")> | undefined
const renderer = Effect.promise(() => (loading ??= import("./pdf-render.ts"))).pipe(Effect.map((m) => m.renderer))

export const DocumentsPdfLib = Layer.succeed(Documents, {
  proformaPdf: (proforma) => Effect.flatMap(renderer, (r) => r.proformaPdf(proforma)),
  unrenderable: (text) => Effect.flatMap(renderer, (r) => r.unrenderable(text)),
})
