/** Records for the store contract; every id is fresh, so tests share one database without clashing. */
import type { Vitest } from "@effect/vitest"
import * as SqlClient from "@effect/sql/SqlClient"
import * as PgClient from "@effect/sql-pg/PgClient"
import { Cause, Context, Effect, Exit, Layer, Redacted, type Scope } from "effect"
import type { Account, Application } from "../../core/accounts/model.ts"
import type { Credential } from "../../core/keys/model.ts"
import type { AccountId, ApplicationId, Halalas, KeyId, SaudiMobile, VerificationId } from "../../core/shared/brands.ts"
import type { Verification, VerifySend } from "../../core/verify/model.ts"
import type { Store } from "../../adapters/products.ts"
import type { Migrating } from "../../adapters/sql/migrate.ts"
import { planNames } from "../../adapters/sql/snapshot.ts"
import { freshStore, withSearchPath } from "../support/pg.ts"

export type It = Vitest.MethodsNonLive<Store, true>

export interface ContractOptions {
  /** Whether two transactions can be open at once (PostgreSQL); the memory store and PGlite serialize them. */
  readonly concurrentTransactions: boolean
}

export const uuid = () => crypto.randomUUID()

export const account = (over: Partial<Account> = {}): Account => ({
  id: uuid() as AccountId,
  name: "Acme",
  sandboxOnly: false,
  partner: false,
  status: "active",
  createdAt: 1_700_000_000_000,
  ...over,
})

export const application = (accountId: AccountId, over: Partial<Application> = {}): Application => ({
  id: uuid() as ApplicationId,
  accountId,
  name: "Shop",
  status: "active",
  externalId: null,
  paused: false,
  unpausedAt: null,
  approvedAt: null,
  createdAt: 1_700_000_000_001,
  ...over,
})

export const credential = (
  accountId: AccountId,
  applicationId: ApplicationId | null,
  over: Partial<Credential> = {},
): Credential => ({
  id: uuid() as KeyId,
  hash: `hash-${uuid()}`,
  accountId,
  applicationId,
  kind: "key",
  mode: "live",
  access: ["verify:send", "notifications:read"],
  appName: null,
  holder: null,
  expiresAt: null,
  ipAllowlist: ["10.0.0.0/8", "::1"],
  revokedAt: null,
  createdAt: 1_700_000_000_002,
  ...over,
})

/** Default expiry lies far ahead so that only the sweep tests' own rows are ever expirable. */
export const verification = (app: Application, over: Partial<Verification> = {}): Verification => ({
  id: uuid() as VerificationId,
  applicationId: app.id,
  accountId: app.accountId,
  to: "+966500000002" as SaudiMobile,
  channel: "sms",
  reference: "order-1",
  clientIp: "203.0.113.9",
  mode: "live",
  status: "pending",
  attempts: 0,
  maxAttempts: 3,
  resends: 0,
  codeHash: "code-hash",
  expiresAt: 9_000_000_000_000,
  verifiedAt: null,
  createdAt: 1_700_000_000_003,
  updatedAt: 1_700_000_000_003,
  ...over,
})

export const send = (v: Verification, sentAt: number, over: Partial<VerifySend> = {}): VerifySend => ({
  verificationId: v.id,
  applicationId: v.applicationId,
  to: v.to,
  clientIp: v.clientIp,
  priceHalalas: 9 as Halalas,
  sentAt,
  ...over,
})

/**
 * A schema of its own on the PostgreSQL at `url`, dropped when the scope closes, so repeated runs start
 * clean; answers the url whose `search_path` is that schema.
 */
export const freshSchemaUrl = (url: string): Effect.Effect<string, never, Scope.Scope> =>
  Effect.gen(function* () {
    const admin = Context.get(yield* Layer.build(PgClient.layer({ url: Redacted.make(url) })), SqlClient.SqlClient)
    const schema = `t_${uuid().replaceAll("-", "").slice(0, 16)}`
    yield* admin.unsafe(`CREATE SCHEMA ${schema}`)
    yield* Effect.addFinalizer(() => Effect.ignore(admin.unsafe(`DROP SCHEMA ${schema} CASCADE`)))
    return withSearchPath(url, schema)
  }).pipe(Effect.orDie)

/** A layer over a fresh schema (see `freshSchemaUrl`). */
export const freshSchema = <A, E>(url: string, use: (schemaUrl: string) => Layer.Layer<A, E>): Layer.Layer<A, E> =>
  Layer.unwrapScoped(Effect.map(freshSchemaUrl(url), use))

export const isDefect = (exit: Exit.Exit<unknown, unknown>): boolean => Exit.isFailure(exit) && Cause.isDie(exit.cause)

/**
 * A layer over a migrated PostgreSQL store of its own, dropped when the layer's scope closes: a database cloned
 * from the test command's template (test/support/pg.ts `freshStore`), or, without one or for a `list` that lacks
 * one of its migrations, a fresh schema the layer migrates. For a store layer (`PgStoreLive`); a test of the
 * migrations themselves or of a bare client wants `freshSchema`.
 */
export const freshPgStore = <A, E>(
  url: string,
  use: (storeUrl: string) => Layer.Layer<A, E>,
  list?: ReadonlyArray<Migrating>,
): Layer.Layer<A, E> =>
  Layer.unwrapScoped(
    Effect.map(
      Effect.acquireRelease(
        Effect.promise(() => freshStore(url, list === undefined ? undefined : planNames(list))),
        (store) => Effect.tryPromise(() => store.drop()).pipe(Effect.ignore),
      ),
      (store) => use(store.url),
    ),
  )
