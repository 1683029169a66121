/**
 * How many events retention has dropped from the front of the memory outbox (adapters/memory/webhook-deliveries.ts
 * drops them), so that positions counted over the outbox (the memory partner feed's) stay what they were.
 */
export const outboxRetentionTables = () => ({ outboxDropped: { count: 0 } })
