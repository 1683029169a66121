/**
 * The ceiling of bench/verify.ts alone: the statements of one verification straight through `pg`
 * (plain and with named prepared statements) or on `@electric-sql/pglite`, without HTTP or Effect.
 * Same options as bench/verify.ts.
 *
 *   npx tsx bench/verify-ceiling.ts [--store pglite|postgres|both] [--clients N] [--seconds S] ...
 */
import { run } from "./verify-lib/main.ts"

void run([...process.argv.slice(2), "--no-project"])
