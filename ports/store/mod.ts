/** The storage ports: one tag per repository, plus the transactor that spans them. */
export * from "./accounts.ts"
export * from "./credentials.ts"
export * from "./idempotency.ts"
export * from "./rate-limit.ts"
export * from "./jobs.ts"
export * from "./outbox.ts"
export * from "./simulator.ts"
export * from "./transactor.ts"
export * from "./verify.ts"
export * from "./wallet.ts"
export * from "./webhook-endpoints.ts"
export * from "./webhook-deliveries.ts"

// The `Store` (every product's repositories) is derived from the products list: adapters/products.ts.
