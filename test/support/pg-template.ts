/**
 * The PostgreSQL template database of the test command (issue 28): every product's migrations applied once to a
 * database the test command's global setup makes (test/support/generated.ts; alone: `npx tsx
 * test/support/pg-template.ts`, with DATABASE_URL), so that a test's PostgreSQL store is a `CREATE DATABASE …
 * TEMPLATE` (0.2 s) instead of a schema migrated by its own process (0.4-0.6 s of the test's CPU and as much of
 * PostgreSQL's, per store).
 *
 * The template is named after the store snapshot's manifest (adapters/sql/store-snapshot/manifest.json, made just
 * before by `npm run snapshot`): a hash of the migrations' sources and plan. Changed migrations name another
 * template, made on the next run; worktrees with different migrations on one server each have theirs. A template
 * is made under an advisory lock (two test commands at once make it once), migrated under a name of its own and
 * renamed when complete, and marked IS_TEMPLATE with ALLOW_CONNECTIONS false (a connection to it would make every
 * CREATE DATABASE from it fail). Templates made more than 7 days ago by another hash are dropped.
 */
import { createHash } from "node:crypto"
import { existsSync, readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import type { SnapshotManifest } from "../../adapters/sql/snapshot.ts"

const manifestPath = fileURLToPath(new URL("../../adapters/sql/store-snapshot/manifest.json", import.meta.url))

export const templatePrefix = "platform_tpl_"

/** The template database of these migrations (after the snapshot's manifest), or undefined without a manifest. */
export const templateName = (): { readonly name: string; readonly plan: ReadonlyArray<string> } | undefined => {
  if (!existsSync(manifestPath)) return undefined
  const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as SnapshotManifest
  const hash = createHash("sha256").update(manifest.sources).update(JSON.stringify(manifest.plan)).digest("hex")
  return { name: `${templatePrefix}${hash.slice(0, 24)}`, plan: manifest.plan }
}

/** `url` on another database of the same server. */
export const onDatabase = (url: string, database: string): string => {
  const u = new URL(url)
  u.pathname = `/${database}`
  return u.toString()
}

/** Makes the template of these migrations when there is none (with DATABASE_URL and a snapshot manifest). */
const makeTemplate = async (): Promise<void> => {
  const url = process.env.DATABASE_URL
  const template = templateName()
  if (url === undefined || template === undefined) return
  const { default: pg } = await import("pg")
  const { Effect, Layer } = await import("effect")
  const { PgStoreLive } = await import("../../adapters/sql/store.ts")
  const admin = new pg.Client({ connectionString: url })
  await admin.connect()
  const started = performance.now()
  try {
    await admin.query("SELECT pg_advisory_lock(hashtext('platform test template'))")
    const exists = await admin.query("SELECT FROM pg_database WHERE datname = $1", [template.name])
    if (exists.rowCount === 0) {
      const building = `${template.name}_building`
      await admin.query(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`)
      await admin.query(`CREATE DATABASE ${building}`)
      await Effect.runPromise(Effect.scoped(Layer.build(PgStoreLive(onDatabase(url, building)))))
      await admin.query(`ALTER DATABASE ${building} RENAME TO ${template.name}`)
      await admin.query(`ALTER DATABASE ${template.name} WITH IS_TEMPLATE true ALLOW_CONNECTIONS false`)
      await admin.query(`COMMENT ON DATABASE ${template.name} IS '${new Date().toISOString()}'`)
      console.log(
        `PostgreSQL template: made ${template.name} (${template.plan.length} migrations, ${
          Math.round(performance.now() - started)
        } ms)`,
      )
    } else {
      console.log(`PostgreSQL template: ${template.name} up to date`)
    }
    const old = await admin.query<{ datname: string }>(
      `SELECT datname FROM pg_database d LEFT JOIN pg_shdescription s ON s.objoid = d.oid
       WHERE datname LIKE '${templatePrefix}%' AND datname <> $1 AND datname NOT LIKE '%\\_building'
         AND coalesce(s.description, '') < $2`,
      [template.name, new Date(Date.now() - 7 * 86_400_000).toISOString()],
    )
    for (const { datname } of old.rows) {
      await admin.query(`ALTER DATABASE ${datname} WITH IS_TEMPLATE false`)
      await admin.query(`DROP DATABASE IF EXISTS ${datname}`)
    }
  } finally {
    await admin.end()
  }
}

/** As the global setup runs it: a template not made is a warning, not a failure. */
export const makeTemplateOrWarn = (): Promise<void> =>
  makeTemplate().catch((error: unknown) => {
    // Without a template, each test's PostgreSQL store migrates a schema of its own as before (test/support/pg.ts).
    console.warn(`PostgreSQL template: not made (${error instanceof Error ? error.message : String(error)})`)
  })

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) await makeTemplateOrWarn()
