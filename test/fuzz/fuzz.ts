/**
 * The differential fuzz: the fixed cases, then generated requests, each sent to every way in (one after
 * another on each, in the same order everywhere; the ways in side by side), the answers judged together.
 *
 * Every run goes on after a difference, so the report counts all of them. A class of differences (or of
 * faults) seen for the first time is shrunk at once: fast-check stops at the failing request and shrinks it,
 * the property failing only for that class while it does; then a new phase picks the generation up again
 * (seed + phase), with the class known, until `runs` requests were generated. The minimal request and each
 * way in's answers to it are kept for the report.
 */
import fc from "fast-check"
import { type Answer, describeAnswer, judge, summary, type TargetName, type Verdict } from "./compare.ts"
import { fixedCases } from "./fixed.ts"
import { keySlots, replaySlots, requestArb } from "./generate.ts"
import { describeRequest, type FuzzRequest, representable } from "./request.ts"
import { closeAll, setUp, startTarget, type Target, track } from "./targets.ts"

export interface FuzzOptions {
  /** Generated requests (each goes to every way in). */
  readonly runs: number
  readonly seed: number
  readonly targets?: ReadonlyArray<TargetName>
  /** At most this many shrink steps for one class (each is a request to every way in). */
  readonly shrinkBudget?: number
  /** Send the fixed cases first (default true). */
  readonly fixed?: boolean
  readonly log?: (line: string) => void
  /** How long a way in may take for one answer (ms). */
  readonly timeoutMs?: number
}

export interface Finding {
  readonly key: string
  readonly kind: "difference" | "fault"
  /** Generated or fixed requests that showed it (shrink steps not counted). */
  count: number
  /** The request it was first seen with. */
  readonly first: FuzzRequest
  /** The smallest request found to show it (the first when it was not shrunk). */
  minimal: FuzzRequest
  answers: Readonly<Record<string, Answer>>
  source: string
  /** For a cascade class: the differences counted under it. */
  variants?: Array<string>
}

export interface FuzzReport {
  readonly seed: number
  readonly targets: ReadonlyArray<TargetName>
  readonly fixed: number
  readonly generated: number
  readonly shrinkRequests: number
  /** Requests sent again with fresh keys, to tell a cascade from a class of its own. */
  readonly replays: number
  /** Console requests to each way in that read the SMS simulator's code after a start or a resend. */
  readonly helpers: number
  readonly setupMs: number
  readonly elapsedMs: number
  readonly sent: Readonly<Record<string, number>>
  /** Time each way in took for its answers, summed (ms). */
  readonly busyMs: Readonly<Record<string, number>>
  readonly total: number
  /** Requests (fixed or generated) whose answers were not all the same. */
  readonly differences: number
  /** 5xx answers (other than the catalogue's 502 send_failed) to fixed and generated requests. */
  readonly fiveXX: number
  /** Dropped connections (answers to fixed and generated requests; shrink steps and replays not counted). */
  readonly dropped: number
  /** Requests whose answers broke a rule (faults), all ways in agreeing or not. */
  readonly faulty: number
  readonly findings: ReadonlyArray<Finding>
  /** The majority's answers to the fixed and generated requests, by status and error code (what the run reached). */
  readonly answers: Readonly<Record<string, number>>
}

/** An answer for the histogram: its summary, and a success's `status` field (`200 verified`). */
const outcome = (a: Answer): string => {
  if (a.dropped === undefined && a.status < 300) {
    try {
      const status = JSON.parse(a.body)?.status
      if (typeof status === "string") return `${a.status} ${status}`
    } catch { /* not JSON */ }
  }
  return summary(a)
}

/** The classes a verdict shows; `id` tells a difference from a fault of the same words. */
const keysOf = (v: Verdict): Array<{ key: string; kind: "difference" | "fault"; id: string }> => [
  ...v.differences.map((key) => ({ key, kind: "difference" as const, id: `difference: ${key}` })),
  ...v.faults.map((key) => ({ key, kind: "fault" as const, id: `fault: ${key}` })),
]

export const runFuzz = async (options: FuzzOptions): Promise<FuzzReport> => {
  const log = options.log ?? (() => {})
  const names = options.targets ?? (["node", "deno", "bun", "web", "express"] as const)
  const started = performance.now()
  const targets: Array<Target> = []
  try {
    // The processes start side by side; each way in is its own instance.
    const results = await Promise.allSettled(names.map((n) => startTarget(n, options.timeoutMs)))
    for (const r of results) if (r.status === "fulfilled") targets.push(r.value)
    const failed = results.find((r): r is PromiseRejectedResult => r.status === "rejected")
    if (failed) throw failed.reason
    await setUp(targets)
    const setupMs = performance.now() - started
    log(`ways in ready in ${(setupMs / 1000).toFixed(1)} s: ${targets.map((t) => t.name).join(", ")}`)

    const sent: Record<string, number> = Object.fromEntries(targets.map((t) => [t.name, 0]))
    const busyMs: Record<string, number> = Object.fromEntries(targets.map((t) => [t.name, 0]))
    const findings = new Map<string, Finding>()
    let differences = 0
    let fiveXX = 0
    let dropped = 0
    let faulty = 0
    let shrinkRequests = 0
    let replays = 0
    let helpers = 0
    const answersSeen: Record<string, number> = {}

    const exchange = async (req: FuzzRequest) => {
      const answers = await Promise.all(targets.map(async (t) => {
        const t0 = performance.now()
        const a = await t.send(req)
        busyMs[t.name] += performance.now() - t0
        sent[t.name]++
        return a
      }))
      helpers += await track(targets, req.method, answers)
      const byName = Object.fromEntries(targets.map((t, i) => [t.name, answers[i]])) as Record<TargetName, Answer>
      return { answers: byName, verdict: judge(req.method, byName, req.expect) }
    }

    /**
     * Replays a request with key slots no request used yet (so no rate-limit window, idempotency record or
     * key state of earlier requests applies) and, when it names `{{VID}}`, a verification started just before
     * with another fresh key: does it still show the difference `key`? Answers true when no fresh slots are
     * left (the class is then taken as it is).
     */
    let nextFresh = keySlots
    const reproducesFresh = async (req: FuzzRequest, key: string): Promise<boolean> => {
      const slots = new Map<string, number>()
      const swap = (s: string) =>
        s.replace(/\{\{(LIVE|TEST)(\d*)\}\}/g, (_, kind: string, slot: string) => {
          if (!slots.has(slot)) slots.set(slot, nextFresh++)
          return `{{${kind}${slots.get(slot)}}}`
        })
      const fresh: FuzzRequest = {
        ...req,
        target: swap(req.target),
        headers: req.headers.map(([n, v]) => [n, swap(v)]),
      }
      const namesVid = [req.target, ...req.headers.map(([, v]) => v), Buffer.from(req.body ?? []).toString("latin1")]
        .some((s) => s.includes("{{VID}}"))
      if (nextFresh + (namesVid ? 1 : 0) > keySlots + replaySlots) return true
      if (namesVid) {
        replays++
        await exchange({
          method: "POST",
          target: "/v1/verify/start",
          headers: [["Host", "replay.test"], ["Authorization", `Bearer {{LIVE${nextFresh++}}}`]],
          body: new Uint8Array(Buffer.from('{"to":"0551234567","reference":"replay"}')),
          framing: "length",
        })
      }
      replays++
      const { verdict } = await exchange(fresh)
      return keysOf(verdict).some((k) => k.id === `difference: ${key}`)
    }

    /** The ways in that answered otherwise than the majority to some earlier request (their state may differ). */
    const diverged = new Set<string>()

    /** Where differences that need an earlier request's state are counted, one class for each group of ways in. */
    const cascadeKey = (key: string) =>
      `${key.slice(0, key.indexOf(": "))}: differs only after earlier differences left it in another state` +
      " (the same request with fresh keys answers alike)"
    const cascades = new Map<string, string>()

    const note = (
      key: string,
      kind: "difference" | "fault",
      req: FuzzRequest,
      answers: Record<string, Answer>,
      source: string,
    ) => {
      const known = findings.get(`${kind}: ${key}`)
      if (known) {
        known.count++
        return false
      }
      findings.set(`${kind}: ${key}`, { key, kind, count: 1, first: req, minimal: req, answers, source })
      log(`new ${kind}: ${key}\n  ${describeRequest(req, 400)}`)
      return true
    }

    /**
     * Counts a fixed or generated request's outcome; answers the classes seen for the first time (to shrink).
     * A new difference that the same request with fresh keys does not show is a cascade: counted under its
     * group's cascade class, with its own key listed there, and not shrunk.
     */
    const record = async (req: FuzzRequest, answers: Record<string, Answer>, verdict: Verdict, source: string) => {
      const seen = outcome(answers[verdict.groups[0][0]])
      answersSeen[seen] = (answersSeen[seen] ?? 0) + 1
      if (verdict.differences.length > 0) differences++
      if (verdict.faults.length > 0) faulty++
      fiveXX += verdict.fiveXX
      dropped += verdict.dropped
      const fresh: Array<string> = []
      for (const { key, kind, id } of keysOf(verdict)) {
        const cascade = cascades.get(id)
        if (cascade !== undefined) {
          note(cascade, kind, req, answers, source)
          continue
        }
        const group = key.slice(0, key.indexOf(": ")).split("+")
        if (
          !findings.has(id) && kind === "difference" && group.every((t) => diverged.has(t)) &&
          !(await reproducesFresh(req, key))
        ) {
          const umbrella = cascadeKey(key)
          cascades.set(id, umbrella)
          note(umbrella, kind, req, answers, source)
          const f = findings.get(`${kind}: ${umbrella}`)!
          f.variants = [...(f.variants ?? []), key]
          continue
        }
        if (note(key, kind, req, answers, source)) fresh.push(id)
      }
      for (const g of verdict.groups.slice(1)) for (const t of g) diverged.add(t)
      return fresh
    }

    let fixed = 0
    if (options.fixed !== false) {
      for (const req of fixedCases) {
        const { answers, verdict } = await exchange(req)
        fixed++
        await record(req, answers, verdict, `fixed case: ${req.label}`)
      }
    }

    const arb = requestArb.filter((r) => representable(r) === undefined)
    const budget = options.shrinkBudget ?? 200
    let generated = 0
    let phase = 0
    const progressEvery = Math.max(100, Math.floor(options.runs / 10))
    while (generated < options.runs) {
      let hunting: string | undefined
      let steps = 0
      let best: { req: FuzzRequest; answers: Record<string, Answer> } | undefined
      const result = await fc.check(
        fc.asyncProperty(arb, async (req) => {
          if (hunting === undefined) {
            generated++
            if (generated % progressEvery === 0) {
              log(`${generated}/${options.runs} generated, ${differences} differences, ${findings.size} classes`)
            }
            const { answers, verdict } = await exchange(req)
            const fresh = await record(req, answers, verdict, "generated")
            if (fresh.length === 0) return true
            hunting = fresh[0]
            best = { req, answers }
            return false
          }
          if (steps >= budget) return true
          steps++
          shrinkRequests++
          const { answers, verdict } = await exchange(req)
          if (!keysOf(verdict).some((k) => k.id === hunting)) return true
          best = { req, answers }
          return false
        }),
        { seed: options.seed + phase, numRuns: options.runs - generated },
      )
      phase++
      if (hunting !== undefined && best !== undefined) {
        const f = findings.get(hunting)!
        f.minimal = best.req
        f.answers = best.answers
        f.source = `generated (seed ${options.seed + phase - 1}, shrunk in ${steps} steps${
          steps >= budget ? ", budget reached" : ""
        })`
      }
      if (!result.failed) break
    }

    const total = Object.values(sent).reduce((a, b) => a + b, 0)
    return {
      seed: options.seed,
      targets: targets.map((t) => t.name),
      fixed,
      generated,
      shrinkRequests,
      replays,
      helpers,
      setupMs,
      elapsedMs: performance.now() - started,
      sent,
      busyMs,
      total,
      differences,
      fiveXX,
      dropped,
      faulty,
      findings: [...findings.values()],
      answers: answersSeen,
    }
  } finally {
    await closeAll(targets)
  }
}

/** The report as text: the figures, then every class with its minimal request and each way in's answer. */
export const formatReport = (r: FuzzReport): string => {
  const lines: Array<string> = []
  const secs = r.elapsedMs / 1000
  lines.push(
    `differential fuzz, seed ${r.seed}: ${r.fixed} fixed + ${r.generated} generated requests` +
      ` (+ ${r.shrinkRequests} while shrinking, ${r.replays} replays with fresh keys), ${secs.toFixed(1)} s (setup ${
        (r.setupMs / 1000).toFixed(1)
      } s)`,
  )
  for (const t of r.targets) {
    const busy = r.busyMs[t] / 1000
    lines.push(
      `  ${t.padEnd(8)} ${String(r.sent[t]).padStart(7)} requests, ${
        (r.sent[t] / Math.max(busy, 1e-9)).toFixed(0)
      } req/s` +
        ` (${busy.toFixed(1)} s answering)`,
    )
  }
  lines.push(
    `  in all   ${String(r.total).padStart(7)} requests, ${(r.total / ((r.elapsedMs - r.setupMs) / 1000)).toFixed(0)}` +
      ` req/s (and ${r.helpers} reads of each SMS simulator for {{CODE}})`,
  )
  const seen = Object.entries(r.answers).sort(([, a], [, b]) => b - a)
  lines.push(`answers (the majority's): ${seen.map(([k, n]) => `${k} ×${n}`).join(", ")}`)
  lines.push(
    `differences: ${r.differences} requests; 5xx: ${r.fiveXX}; dropped connections: ${r.dropped};` +
      ` requests with faults: ${r.faulty}; classes: ${r.findings.length}`,
  )
  for (const [i, f] of r.findings.entries()) {
    lines.push("")
    lines.push(`#${i + 1} ${f.kind}: ${f.key}`)
    lines.push(`   seen ${f.count} times; ${f.source}`)
    if (f.variants) lines.push(`   counted here: ${f.variants.join(" | ")}`)
    lines.push(`   request: ${describeRequest(f.minimal, 1500)}`)
    for (const [t, a] of Object.entries(f.answers)) lines.push(`   ${t.padEnd(8)} ${describeAnswer(a, 300)}`)
  }
  return lines.join("\n")
}
