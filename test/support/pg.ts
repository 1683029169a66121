/**
 * A PostgreSQL schema of one's own, shared by the test harnesses and the benchmarks; a migrated store of one's own
 * (`freshStore`: a database cloned from the test command's template).
 */
import pg from "pg"
import { onDatabase, templateName } from "./pg-template.ts"

/** `url` with its `search_path` set to `schema`. */
export const withSearchPath = (url: string, schema: string): string => {
  const u = new URL(url)
  u.searchParams.set("options", `-c search_path=${schema}`)
  return u.toString()
}

/** One statement on a connection of its own. */
const once = async (url: string, statement: string): Promise<void> => {
  const admin = new pg.Client({ connectionString: url })
  await admin.connect()
  try {
    await admin.query(statement)
  } finally {
    await admin.end()
  }
}

export const createSchema = (url: string, schema: string) => once(url, `CREATE SCHEMA ${schema}`)

export const dropSchema = (url: string, schema: string) => once(url, `DROP SCHEMA IF EXISTS ${schema} CASCADE`)

/** A PostgreSQL store of a test's own: a url, and how to remove it. */
export interface FreshStore {
  readonly url: string
  /** Whether the store is migrated already (cloned from the template) or empty (a schema of its own). */
  readonly migrated: boolean
  readonly drop: () => Promise<void>
}

/**
 * A new PostgreSQL store on the server of `url`: a database cloned from the migrated template the global setup
 * made (test/support/pg-template.ts), or, where there is none or the test's products list lacks one of its
 * migrations (`plan`, as the snapshot's manifest names them), an empty schema of its own that the store migrates.
 */
export const freshStore = async (url: string, plan?: ReadonlyArray<string>): Promise<FreshStore> => {
  const template = templateName()
  const fits = template !== undefined && (plan === undefined || template.plan.every((name) => plan.includes(name)))
  if (fits) {
    const database = `t_${crypto.randomUUID().replaceAll("-", "").slice(0, 20)}`
    try {
      await once(url, `CREATE DATABASE ${database} TEMPLATE ${template.name}`)
      return {
        url: onDatabase(url, database),
        migrated: true,
        drop: () => once(url, `DROP DATABASE IF EXISTS ${database} WITH (FORCE)`),
      }
    } catch (error) {
      // No template on this server (the global setup could not make it): a schema, as before.
      if (!/does not exist/.test(String(error))) throw error
    }
  }
  const schema = `t_${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}`
  await createSchema(url, schema)
  return { url: withSearchPath(url, schema), migrated: false, drop: () => dropSchema(url, schema) }
}
