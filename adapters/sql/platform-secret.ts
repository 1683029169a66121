import { SqlClient } from "@effect/sql"
import { Effect, Layer } from "effect"
import { PlatformSecretRepo } from "../../ports/store/platform-secret.ts"

export const SqlPlatformSecret = Layer.effect(
  PlatformSecretRepo,
  Effect.map(SqlClient.SqlClient, (sql) => ({
    getOrCreate: (candidate: string) =>
      Effect.gen(function* () {
        yield* sql`INSERT INTO platform_secret (id, secret) VALUES (1, ${candidate}) ON CONFLICT (id) DO NOTHING`
        const rows = yield* sql<{ secret: string }>`SELECT secret FROM platform_secret WHERE id = 1`
        return rows[0].secret
      }).pipe(Effect.orDie),
  })),
)
