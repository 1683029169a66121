/**
 * An example product, as docs/adding-a-product.md builds one: a port, its memory and SQL repositories, a
 * migration, two declared operations and a job. The test adds it to the products list and nothing else.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { Clock, Context, Effect, Layer, Option, Schema } from "effect"
import { deleteIn, memoryTables, setIn } from "../../adapters/memory/db.ts"
import { dueAfterLease } from "../../adapters/jobs.ts"
import { product } from "../../adapters/product.ts"
import type { Migration } from "../../adapters/sql/migrate.ts"
import { type AnyOperation, operation } from "../../core/pipeline/operation.ts"
import type { Job } from "../../core/shared/job.ts"
import { JobsRepo } from "../../ports/store/jobs.ts"

export interface Note {
  readonly id: string
  readonly body: string
  readonly createdAt: number
}

/** The port (ports/store/<product>.ts in a real product). */
export class NotesRepo extends Context.Tag("example/NotesRepo")<NotesRepo, {
  readonly add: (note: Note) => Effect.Effect<void>
  readonly list: Effect.Effect<ReadonlyArray<Note>>
  readonly oldest: Effect.Effect<Option.Option<number>>
  readonly prune: (before: number) => Effect.Effect<number>
}>() {}

/** Memory: the product's tables, declared beside its repository. */
export const notesTables = () => ({ notes: new Map<string, Note>() })

const NotesRepoMemory = Layer.effect(
  NotesRepo,
  Effect.map(memoryTables(notesTables), (db) => ({
    add: (note) => db.write((t, record) => setIn(t.notes, note.id, note, record)),
    list: db.read((t) => [...t.notes.values()].sort((a, b) => a.createdAt - b.createdAt)),
    oldest: db.read((t) => {
      const times = [...t.notes.values()].map((n) => n.createdAt)
      return times.length === 0 ? Option.none() : Option.some(Math.min(...times))
    }),
    prune: (before) =>
      db.write((t, record) => {
        let n = 0
        for (const note of [...t.notes.values()]) {
          if (note.createdAt < before) {
            deleteIn(t.notes, note.id, record)
            n++
          }
        }
        return n
      }),
  })),
)

const NotesRepoSql = Layer.effect(
  NotesRepo,
  Effect.map(SqlClient.SqlClient, (sql) => ({
    add: (note) =>
      sql`INSERT INTO example_notes (id, body, created_at) VALUES (${note.id}, ${note.body}, ${note.createdAt})`.pipe(
        Effect.asVoid,
        Effect.orDie,
      ),
    list: sql<{ id: string; body: string; created_at: number }>`SELECT id, body, created_at FROM example_notes
      ORDER BY created_at`.pipe(
      Effect.map((rows) => rows.map((r) => ({ id: r.id, body: r.body, createdAt: Number(r.created_at) }))),
      Effect.orDie,
    ),
    oldest: sql<{ at: number | null }>`SELECT min(created_at) AS at FROM example_notes`.pipe(
      Effect.map(([r]) => (r.at === null ? Option.none() : Option.some(Number(r.at)))),
      Effect.orDie,
    ),
    prune: (before) =>
      sql`DELETE FROM example_notes WHERE created_at < ${before} RETURNING id`.pipe(
        Effect.map((rows) => rows.length),
        Effect.orDie,
      ),
  })),
)

const createNotes: Migration = {
  number: 1,
  name: "notes",
  run: Effect.flatMap(
    SqlClient.SqlClient,
    (sql) => sql`CREATE TABLE example_notes (id uuid PRIMARY KEY, body text NOT NULL, created_at bigint NOT NULL)`,
  ),
}

const NoteBody = Schema.Struct({ body: Schema.String.pipe(Schema.minLength(1)) })
const NoteOutput = Schema.Struct({ id: Schema.UUID, body: Schema.String, created_at: Schema.Number })
const render = (n: Note) => ({ id: n.id, body: n.body, created_at: n.createdAt })
const console = { _tag: "Console" } as const

/** The operations, declared once: routes, decoding, the OpenAPI document and the client come from them. */
export const notesOperations = [
  operation({
    name: "example.notes.create",
    summary: "Keeps a note for a day.",
    method: "POST",
    path: "/console/v1/example-notes",
    caller: console,
    answer: { status: 201, envelope: "data" },
    parameters: [],
    body: NoteBody,
    // No `decode`: the declared Schema decodes the body (refused fields come back in `fields` and `errors`).
    output: NoteOutput,
    errors: [],
    idempotent: false,
    service: NotesRepo,
    run: (notes, _, { body: { body: text } }) =>
      Effect.gen(function* () {
        const note = { id: crypto.randomUUID(), body: text, createdAt: yield* Clock.currentTimeMillis }
        yield* notes.add(note)
        return render(note)
      }),
  }),
  operation({
    name: "example.notes.list",
    summary: "The notes kept.",
    method: "GET",
    path: "/console/v1/example-notes",
    caller: console,
    answer: { status: 200, envelope: "data" },
    parameters: [],
    body: undefined,
    output: Schema.Array(NoteOutput),
    errors: [],
    idempotent: false,
    service: NotesRepo,
    run: (notes) => Effect.map(notes.list, (list) => list.map(render)),
  }),
] as const satisfies ReadonlyArray<AnyOperation>

const dayMs = 24 * 60 * 60 * 1000
const ExpireJob = "example.notes.expire"

/** A note is removed a day after it was kept; the job falls due then. */
const expire: Effect.Effect<ReadonlyArray<Job>, never, NotesRepo | JobsRepo> = Effect.gen(function* () {
  const notes = yield* NotesRepo
  const leases = yield* JobsRepo
  const job: Job = {
    name: ExpireJob,
    nextDue: Effect.flatMap(
      notes.oldest,
      (oldest) =>
        dueAfterLease(ExpireJob, Option.map(oldest, (at) => at + dayMs)).pipe(Effect.provideService(JobsRepo, leases)),
    ),
    run: Effect.flatMap(Clock.currentTimeMillis, (now) => notes.prune(now - dayMs)),
  }
  return [job]
})

export const notesProduct = product({
  name: "example-notes",
  memory: NotesRepoMemory,
  sql: NotesRepoSql,
  migrations: [createNotes],
  operations: notesOperations,
  jobs: expire,
})
