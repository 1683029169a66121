/**
 * What the send benchmarks (bench/notifications-lib, bench/email-lib) share: the options' reading, a ceiling's
 * loop over a product's own send, the platform and its ceilings run in alternating slices, and the report.
 */
import { randomBytes, randomUUID } from "node:crypto"
import { loadavg } from "node:os"
import type { Db } from "../verify-lib/ceiling.ts"
import {
  fmt,
  Latencies,
  measureSlice,
  ms,
  ownCpuSeconds,
  type Slice,
  type SliceFigures,
  type SliceOptions,
} from "../verify-lib/support.ts"
import type { PlatformRun } from "../notifications-lib/platform.ts"

export const log = (line = "") => process.stdout.write(`${line}\n`)
export const load = () => loadavg().map((x) => x.toFixed(1)).join(" ")
export const cpuMs = (seconds: number, n: number) => `${fmt((1e3 * seconds) / n, 2)} ms`

/** `--name value`, `--name=value` and `--flag`; `num` reads a number, its `--quick` value when not given. */
export const readFlags = (argv: ReadonlyArray<string>) => {
  const named = new Map<string, string>()
  const flags = new Set<string>()
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]
    if (!a.startsWith("--")) continue
    // At the first "=" only: a value may hold more (`--node-flags=--heap-growing-percent=25`).
    const eq = a.indexOf("=")
    const [k, inline] = eq < 0 ? [a.slice(2), undefined] : [a.slice(2, eq), a.slice(eq + 1)]
    if (inline !== undefined) named.set(k, inline)
    else if (i + 1 < argv.length && !argv[i + 1].startsWith("--")) named.set(k, argv[++i])
    else flags.add(k)
  }
  const quick = flags.has("quick")
  const num = (k: string, normal: number, small: number) => {
    const v = named.get(k)
    if (v === undefined) return quick ? small : normal
    const n = Number(v)
    if (!Number.isFinite(n) || n < 0) throw new Error(`--${k} must be a number >= 0`)
    return n
  }
  return { named, flags, quick, num }
}

/** Live credentials of one application straight in the store (hashes only: the ceiling presents them). */
export const seedKeys = async (
  db: Db,
  seed: { readonly accountId: string; readonly applicationId: string; readonly now: number },
  keys: number,
): Promise<ReadonlyArray<string>> => {
  const keyHashes: Array<string> = []
  for (let i = 0; i < keys; i++) {
    const hash = randomBytes(32).toString("hex")
    keyHashes.push(hash)
    await db.query(
      "",
      `INSERT INTO credentials (id, hash, account_id, application_id, kind, mode, access, app_name, expires_at, ip_allowlist, revoked_at, created_at)
      VALUES ($1, $2, $3, $4, 'key', 'live', '"full"'::jsonb, NULL, NULL, '[]'::jsonb, NULL, $5)`,
      [randomUUID(), hash, seed.accountId, seed.applicationId, seed.now],
    )
  }
  return keyHashes
}

export interface CeilingRun extends SliceFigures {
  readonly label: string
  readonly latency: Latencies
  /** CPU of this process while measuring (the driver and, for PGlite, the database). */
  cpuSeconds: number
  nextKey: number
  nextTo: number
}

export interface Ceiling {
  readonly run: CeilingRun
  readonly slice: (opts: SliceOptions) => Promise<void>
  readonly close: () => Promise<void>
}

const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve))

/** A ceiling: `send` (one send's statements, straight through the driver) in a loop of clients, slice by slice. */
export const ceilingOver = (
  label: string,
  send: (run: CeilingRun) => Promise<void>,
  close: () => Promise<void>,
): Ceiling => {
  const run: CeilingRun = {
    label,
    seconds: 0,
    verifications: 0,
    latency: new Latencies(),
    slices: [],
    machineBusyPercent: Number.NaN,
    cpuSeconds: 0,
    dbCpuSeconds: Number.NaN,
    nextKey: 0,
    nextTo: 0,
  }
  return {
    run,
    slice: async (opts) => {
      const client = async (slice: Slice) => {
        while (!slice.stopping) {
          // PGlite answers through microtasks only: without a turn of the event loop no timer would fire.
          await yieldToLoop()
          const t0 = performance.now()
          await send(run)
          if (slice.measuring) {
            run.latency.add(performance.now() - t0)
            slice.verifications++
          }
        }
      }
      const [cpu] = await measureSlice(opts, client, run, [ownCpuSeconds])
      run.cpuSeconds += cpu
    },
    close,
  }
}

/** The platform and its ceilings in alternating slices, so whatever else the machine does weighs on both. */
export const alternate = async (
  rounds: number,
  slice: SliceOptions,
  platform: PlatformRun,
  platformSlice: (opts: SliceOptions) => Promise<void>,
  ceilings: ReadonlyArray<{ readonly c: Ceiling; readonly dbCpu?: () => Promise<Map<number, number>> }>,
): Promise<void> => {
  for (let round = 1; round <= rounds; round++) {
    const parts: Array<string> = []
    await platformSlice(slice)
    parts.push(`platform ${fmt(platform.slices.at(-1)!)}`)
    for (const { c, dbCpu } of ceilings) {
      await c.slice({ ...slice, dbCpu })
      parts.push(`${c.run.label} ${fmt(c.run.slices.at(-1)!)}`)
    }
    log(`  round ${round}/${rounds} (sends/s): ${parts.join("; ")}; load average ${load()}`)
  }
}

/** The platform's figures and each ceiling's, with the ratio overall and per slice. */
export const reportSendRun = (
  store: string,
  p: PlatformRun,
  ceilings: ReadonlyArray<CeilingRun>,
  extra: (rate: number) => ReadonlyArray<string> = () => [],
) => {
  const rate = p.verifications / p.seconds
  log(`platform (HTTP → Node host → ${store === "pglite" ? "PGlite in the host (memory://)" : "PostgreSQL"}):`)
  log(`  sends/s                ${fmt(rate, 0)}`)
  log(`  p50 / p99              ${ms(p.latency.percentile(50))} / ${ms(p.latency.percentile(99))}`)
  log(`  status mix             {${p.mix}}`)
  for (const line of extra(rate)) log(line)
  log(
    `  CPU per send           host ${cpuMs(p.hostCpuSeconds, p.verifications)}${
      Number.isNaN(p.dbCpuSeconds) ? "" : ` + PostgreSQL ${cpuMs(p.dbCpuSeconds, p.verifications)}`
    } (load generator ${cpuMs(p.clientCpuSeconds, p.verifications)} besides); machine busy ${
      fmt(p.machineBusyPercent, 0)
    }% of all cores`,
  )
  log(`  per slice              ${p.slices.map((x) => fmt(x)).join(", ")} sends/s`)
  if (p.failures.length > 0) log(`  first failures:        ${p.failures.join(" | ")}`)
  for (const c of ceilings) {
    const cr = c.verifications / c.seconds
    log(`ceiling (${c.label}, same statements, no HTTP, no Effect):`)
    log(`  sends/s                ${fmt(cr, 0)}`)
    log(`  p50 / p99              ${ms(c.latency.percentile(50))} / ${ms(c.latency.percentile(99))}`)
    log(
      `  CPU per send           node ${cpuMs(c.cpuSeconds, c.verifications)}${
        Number.isNaN(c.dbCpuSeconds) ? "" : ` + PostgreSQL ${cpuMs(c.dbCpuSeconds, c.verifications)}`
      }; machine busy ${fmt(c.machineBusyPercent, 0)}% of all cores`,
    )
    log(`  per slice              ${c.slices.map((x) => fmt(x)).join(", ")} sends/s`)
    log(
      `  ratio platform/ceiling ${fmt(rate / cr, 2)}  (per slice: ${
        p.slices.map((x, i) => fmt(x / c.slices[i], 2)).join(", ")
      })`,
    )
  }
}
