/**
 * The Email benchmark: sends over HTTP against the Node host, beside the ceiling of the same SQL straight through
 * the driver; then the message log (`email.messages.list`, `q` and `status`) over 1,000,000 rows of one
 * application. Prints figures; asserts nothing about timing.
 *
 *   npx tsx bench/email.ts [--store pglite|postgres|both] [--clients N] [--seconds S] [--rounds R] [--warmup S]
 *                          [--keys K] [--database-url URL] [--rows N] [--calls C] [--page-seconds S]
 *                          [--no-sends] [--no-log] [--quick] [--cpu-prof-dir DIR]
 *   (also `npm run bench -- email ...`)
 *
 * Defaults: PostgreSQL then PGlite, 16 clients, 15 s measured per side in 3 rounds (each slice after 2 s of
 * warm-up), 500 keys, the log over 1,000,000 rows with 50 calls a page (fewer once a page has taken 20 s, at least
 * 5); PostgreSQL at $DATABASE_URL or postgres://postgres@127.0.0.1:5432/test. `--quick`: 1 s per side in 1 round
 * after 0.5 s, 16 keys, 20,000 rows, 10 calls a page within 5 s (a smoke run; any option given still wins).
 *
 * Platform (bench/email-lib/platform.ts): the Node host as its own process (bench/verify-lib/support.ts
 * `startHost`) with `EMAIL_PROVIDER=simulator`, `DNS_PROVIDER=simulator` and `CLOCK=simulated`, on PGlite
 * (`PGLITE_DIR=memory://`) or PostgreSQL in a fresh schema (dropped at the end), set up as the README's Email
 * walk-through: an account token from the console, access asked and granted (`PUT /accounts/{a}/email-access`), the
 * sender domain shop.sa added, its three records put in the simulated DNS (`PUT /simulator/dns/records`), the clock
 * moved 10 minutes so the job checks it (verified), then live keys. The clock moves only when told, so each slice
 * first moves it a minute: a new rate window (120 requests a key a minute) for every key. Each client loops
 * `POST /v1/email/messages` to a new recipient.
 *
 * Ceiling (bench/email-lib/ceiling.ts): one send's statements, in the host's order, straight through `pg` (plain,
 * and with named prepared statements; a pool of 10, the project's) or straight on `@electric-sql/pglite` in
 * memory, on a schema the project's migrations made, at the same concurrency. Every run first traces one send on a
 * host of its own and prints whether its statements are the ceiling's, text for text. One send, 7 statements,
 * each on its own (no transaction):
 *
 *   1. the rate window's hit with the credential, its account and application (adapters/sql/credentials.ts)
 *   2. SELECT status, requested_at, decided_at FROM email_access        (the account's access)
 *   3. SELECT enabled FROM email_switch                                 (the application's switch)
 *   4. SELECT ... FROM sender_domains WHERE application_id              (`from` on a verified domain)
 *   5. INSERT INTO email_messages                                       (the log row)
 *   6. INSERT INTO sim_email_sent                                       (the simulated provider's send)
 *   7. UPDATE email_messages SET provider_message_id
 *
 * Platform and ceilings run in alternating slices (platform, ceiling(s), platform, ...); the ratio is platform
 * sends/s ÷ ceiling sends/s, over all slices and per slice. The load average is printed each round.
 *
 * `--cpu-prof-dir DIR`: the sends' host writes a V8 CPU profile there when it stops.
 *
 * The log (bench/email-lib/log.ts): a host of its own (PostgreSQL in a fresh schema; PGlite in a temporary
 * directory, the host stopped while the rows go in), set up as above; `--rows` rows written straight with SQL
 * (`generate_series`) into email_messages, then ANALYZE; for each combination of `q` and `status`, the plan of the
 * repository's own statement (adapters/sql/email.ts `listStatement`), `EXPLAIN (ANALYZE, BUFFERS)`, on the first
 * page and on the page after it, the first page's statement timed `--calls` times straight through the driver, then
 * `--calls` calls of `GET /v1/applications/{a}/email/messages` with the account token on each page, one at a time:
 * p50 / p99 of each.
 */
import { run } from "./email-lib/main.ts"

void run(process.argv.slice(2))
