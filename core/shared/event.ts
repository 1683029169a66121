/**
 * An event a product fires (spec Section 6): its name, what it means, and its `data`'s Schema. The OpenAPI
 * document's `webhooks` come from these declarations (adapters/products.ts folds them); each delivery's body is
 * the envelope `{ event, data, sent_at, test? }` (DECISIONS 5).
 */
import type { Schema } from "effect"

export interface EventDeclaration {
  readonly name: string
  readonly summary: string
  readonly data: Schema.Schema<any, any>
}

/** A product's events (keeps their names' literals). */
export const events = <const E extends ReadonlyArray<EventDeclaration>>(declared: E): E => declared
