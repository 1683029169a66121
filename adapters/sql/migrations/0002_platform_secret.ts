import { Effect } from "effect"
import { SqlClient } from "@effect/sql"

export default Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql`CREATE TABLE IF NOT EXISTS platform_secret (
    id INT PRIMARY KEY CHECK (id = 1),
    secret TEXT NOT NULL
  )`)
