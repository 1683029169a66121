/** A PostgreSQL schema of one's own, shared by the test harnesses and the benchmarks. */
import pg from "pg"

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
