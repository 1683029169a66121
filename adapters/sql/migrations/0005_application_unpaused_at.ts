import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.flatMap(
  SqlClient.SqlClient,
  (sql) => sql`ALTER TABLE applications ADD COLUMN IF NOT EXISTS unpaused_at BIGINT`,
)
