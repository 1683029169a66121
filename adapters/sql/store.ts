/** The SQL store: every repository over one `SqlClient`, on PostgreSQL (`@effect/sql-pg`) or PGlite. */
import type * as SqlClient from "@effect/sql/SqlClient"
import { Effect, Layer } from "effect"
import { products, sqlRepositoriesOf, sqlStoreOf, type Store } from "../products.ts"
import type { AnyProduct } from "../product.ts"
import * as PgliteClient from "./pglite-client.ts"
import { seedFor } from "./snapshot.ts"

/** Every product's repositories over one `SqlClient`. */
export const SqlStore: Layer.Layer<Store, never, SqlClient.SqlClient> = sqlRepositoriesOf()

/** The store over a client, once the migrations have run on it. Connection failures are defects. */
export const storeOver = <E>(
  clientLayer: Layer.Layer<SqlClient.SqlClient, E>,
  list: ReadonlyArray<AnyProduct> = products,
): Layer.Layer<Store | SqlClient.SqlClient> => sqlStoreOf(clientLayer, list)

/**
 * PostgreSQL through `@effect/sql-pg`, each connection preparing the statements it runs (see pg-client.ts). The
 * client's module, and `pg` with it, is imported when a PostgreSQL store is made: a PGlite store (the embedded
 * default) does not load the driver (about 65 ms and 10-15 MB of a Node start, issue 28).
 */
export const PgStoreLive = (
  url: string,
  list: ReadonlyArray<AnyProduct> = products,
): Layer.Layer<Store | SqlClient.SqlClient> =>
  Layer.unwrapEffect(
    Effect.promise(() => import("./pg-client.ts")).pipe(Effect.map((pg) => storeOver(pg.layer(url), list))),
  )

/** `dataDir`: `"memory://"` or a directory. A new database starts from the shipped snapshot (snapshot.ts). */
export const PgliteStoreLive = (
  dataDir: string,
  list: ReadonlyArray<AnyProduct> = products,
): Layer.Layer<Store | SqlClient.SqlClient> => storeOver(PgliteClient.layer({ dataDir, seed: seedFor(list) }), list)
