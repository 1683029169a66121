/**
 * Issue 4's benchmark: Verify start then check over HTTP against the Node host, beside the ceiling of
 * the same SQL straight through the driver. Prints figures; asserts nothing about timing.
 *
 *   npx tsx bench/verify.ts [--store pglite|postgres|both|memory] [--clients N] [--seconds S] [--rounds R]
 *                           [--warmup S] [--keys K] [--database-url URL]
 *                           [--statements]        trace one verification's statements, compare with the ceiling's
 *                           [--applications 1|16|both] [--no-pair] [--serial N]
 *                           [--no-ceiling] [--no-project] [--cpu-prof-dir DIR] (profile the host)
 *   (also `npm run bench -- verify ...`; bench/verify-ceiling.ts runs the ceiling alone)
 *
 * Defaults: both stores, 16 clients, 15 s measured per side in 3 rounds (after 2 s of warm-up each),
 * 500 keys, PostgreSQL at $DATABASE_URL or postgres://postgres@127.0.0.1:5432/test. `--store memory` runs
 * the host on its memory store (no ceiling): what HTTP, the runtime and the core cost without SQL.
 *
 * Project: the Node host runs as its own process (`node --import tsx hosts/node.ts`, what
 * `npx tsx hosts/node.ts` runs) with the SMS simulator, on PGlite (`PGLITE_DIR=memory://`) or on
 * PostgreSQL in a fresh schema (`search_path` and `application_name` in the URL; dropped at the end).
 * The console sets up one approved application, a deep wallet, high caps, the guard off, and many keys:
 * the rate limit is 120 requests per key per 60 s, so requests go round robin over all keys (the
 * status mix shows there is no 429). Each client loops: start (a new +96655… destination) → GET the
 * simulator's SMS log for it (the code exists nowhere else, so this read is part of every verification;
 * its latency is shown apart) → check, which must answer `verified`.
 *
 * Ceiling: the same statements (the host's trace of one verification, see --statements) straight
 * through `pg` (plain, and with named prepared statements) or straight on `@electric-sql/pglite` (plain `query`,
 * and through its protocol with named statements: verify-lib/ceiling.ts `pglitePreparedDb`), at
 * the same concurrency, on a schema made by the project's migrations.
 *
 * Minimal pair (PostgreSQL): /work/shared/bench/minimal-pair (or $MINIMAL_PAIR_DIR), the least SQL a start
 * and a check need, run by pgbench (-M prepared, the project's client count, -j 2) on the `minbench`
 * database (made from its schema.sql when missing); the ratio is project verifications/s ÷ pairs/s.
 * `--no-pair` leaves it out.
 *
 * Applications (`--applications`, default `both` on PostgreSQL and `1` on PGlite): the project's clients
 * all on one application, or spread over 16 applications of one account (client i on application i mod
 * 16), in alternating slices; prints the ratio of the two. One account, so one wallet: what differs is
 * only the application row each start locks (the pair's pair-1wallet.sql is the same one merchant).
 *
 * Before the timed part, every run traces one verification on a host of its own and prints its
 * statements and WAL-flushing commits (the SMS simulator's statements left out; tables' persistence read
 * from pg_class), and on PostgreSQL the pg_stat_wal / pg_stat_database deltas over `--serial N`
 * verifications run one at a time (default 100; 0 skips; about 30 s).
 *
 * Project and ceilings run in alternating slices (--rounds) so that whatever else the machine does
 * weighs on both alike. Besides throughput and latency it prints CPU per verification (host, the
 * PostgreSQL server processes of the run's own connections, the load generator), read from /proc.
 */
import { run } from "./verify-lib/main.ts"

void run(process.argv.slice(2))
