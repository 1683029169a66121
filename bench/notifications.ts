/**
 * The Notifications benchmark: template sends over HTTP against the Node host, beside the ceiling of the same
 * SQL straight through the driver; then the cost of status reports arriving out of order. Prints figures;
 * asserts nothing about timing (it fails only when a report fails or a message moved backwards).
 *
 *   npx tsx bench/notifications.ts [--store pglite|postgres|both] [--clients N] [--seconds S] [--rounds R]
 *                                  [--warmup S] [--keys K] [--database-url URL]
 *                                  [--reports N] [--messages M] [--report-clients C] [--seed X]
 *                                  [--no-sends] [--no-reports] [--quick]
 *                                  [--ceiling-omit channel,readable,logSend,setProviderId] [--cpu-prof-dir DIR]
 *   (also `npm run bench -- notifications ...`)
 *
 * Defaults: both stores, 16 clients, 15 s measured per side in 3 rounds (each slice after 2 s of warm-up), 500
 * keys, 100,000 reports on 10,000 messages with 16 clients, PostgreSQL at $DATABASE_URL or
 * postgres://postgres@127.0.0.1:5432/test. `--quick`: 1 s per side in 1 round after 0.5 s, 8 keys, 500 reports
 * on 50 messages (a smoke run; any option given still wins). Most of its time is the six hosts' starts (a trace
 * host, a send host and a report host per store).
 *
 * Platform: the Node host as its own process (bench/verify-lib/support.ts `startHost`: `node --import tsx
 * hosts/node.ts`) with the simulated chat network (CHAT_PROVIDER's default), on PGlite (`PGLITE_DIR=memory://`)
 * or on PostgreSQL in a fresh schema (dropped at the end). The console makes one account with a deep wallet, one
 * approved application, a connected simulated number, the approved utility template `order_update` (ar, one named
 * parameter) and the live keys; the rate limit is 120 requests a key a minute, so the clients take keys round
 * robin. Each client loops `POST /v1/chatmsg/messages` to a new +96655… destination.
 *
 * Ceiling (bench/notifications-lib/ceiling.ts): one send's statements, in the host's order, straight through `pg`
 * (plain, and with named prepared statements; a pool of 10, the project's) or straight on `@electric-sql/pglite`
 * in memory, on a schema the project's migrations made, at the same concurrency. Every run first traces one send
 * on a host of its own (bench/verify-lib/trace.ts) and prints whether its statements are the ceiling's, text for
 * text. One send of a utility template, 11 statements:
 *
 *    1. the rate window's hit with the credential, its account and application (adapters/sql/credentials.ts)
 *    2. SELECT enabled FROM chat_channels                     (ChatChannelsRepo.enabled: the channel switch)
 *    3. SELECT number, connected FROM sim_chat_numbers         (simulator: the application's number)
 *    4. SELECT 1 FROM sim_chat_unreadable                      (simulator: does the network answer)
 *    5. SELECT template FROM sim_chat_templates ... ORDER BY   (simulator: the template copies)
 *    6. BEGIN
 *    7. the wallet's charge with its ledger row                (adapters/sql/wallet.ts, one statement)
 *    8. INSERT INTO chat_messages                              (ChatMessagesRepo.insert)
 *    9. COMMIT
 *   10. INSERT INTO sim_chat_sent                              (simulator: the network's log, i.e. the send)
 *   11. UPDATE chat_messages SET provider_message_id           (ChatMessagesRepo.setProviderId)
 *
 * The consent read (`SELECT opted_out, source, updated_at FROM chat_consent`) is a marketing send's only, so it is
 * in neither side here. On PostgreSQL the host sends BEGIN in the round trip of the charge (adapters/sql/
 * pg-client.ts); the ceiling's `pg` sends it on its own.
 *
 * `--ceiling-omit a,b`: one more ceiling (PGlite, or `pg` with prepared statements), in the same slices, without
 * those statements: what they cost a send (a diagnostic; the ratio stays against the full ceilings).
 *
 * `--cpu-prof-dir DIR`: the sends' host writes a V8 CPU profile there when it stops.
 *
 * Platform and ceilings run in alternating slices (platform, ceiling(s), platform, ...) so that whatever else the
 * machine does weighs on both alike; the ratio is platform sends/s ÷ ceiling sends/s, over all slices and per
 * slice. The load average is printed each round.
 *
 * Status reports: a host of its own (PostgreSQL in a fresh schema, or PGlite in a temporary directory so the
 * store can be opened once the host has stopped), `--messages` sent over HTTP, then `--reports` reports (sent 30 %,
 * delivered 30 %, read 30 %, failed 10 %; each message its share, the whole list shuffled, so most arrive out of
 * order or behind the message's state) posted by `--report-clients` clients to the simulator's console route
 * `POST /console/v1/simulator/chatmsg/messages/{id}/report`, which is `Notifications.report` (reports on the same
 * message race each other, too). Prints reports/s, p50/p99, how many changed a message (= the events written:
 * one per change) and how many changed nothing; then reads each message's status and its `message.*` events
 * (in `seq` order) from the store and checks that none moved backwards.
 */
import { run } from "./notifications-lib/main.ts"

void run(process.argv.slice(2))
