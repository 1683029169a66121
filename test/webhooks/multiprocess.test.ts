/**
 * Three server processes on one PostgreSQL deliver every event once one of them is SIGKILLed mid-run
 * (bench/webhooks-kill.ts). Short form here (150 events; WEBHOOKS_KILL_EVENTS=1000 for the full one).
 */
import { describe, expect, it } from "vitest"
import { Dispatch } from "../../core/webhooks/schedule.ts"
import { runKillScenario } from "../../bench/webhooks-kill.ts"

const databaseUrl = process.env.DATABASE_URL
const events = Number(process.env.WEBHOOKS_KILL_EVENTS ?? 150)

describe("webhooks across three processes, one SIGKILLed", () => {
  it.skipIf(databaseUrl === undefined)(
    `${events} events are all delivered, none lost; duplicates only where the kill interrupted an attempt${
      databaseUrl === undefined ? " (SKIPPED: needs DATABASE_URL)" : ""
    }`,
    async () => {
      const figures = await runKillScenario(databaseUrl!, events)
      console.log("webhooks-kill figures", JSON.stringify(figures))
      expect(figures.badSignatures).toBe(0)
      expect(figures.deliveredBeforeKill).toBeGreaterThan(0)
      expect(figures.lost).toBe(0)
      expect(figures.unexpected).toBe(0)
      // Every extra arrival is an attempt the killed process made but never recorded, around the kill.
      expect(figures.attemptsRecorded).toBe(events)
      expect(figures.duplicates).toBe(figures.duplicatesUnrecorded)
      expect(figures.duplicates).toBe(figures.duplicatesAcrossKill)
      expect(figures.duplicates).toBeLessThanOrEqual(Dispatch.batch)
      expect(figures.deliveryStatus).toEqual({ succeeded: events })
      expect(figures.unroutedEvents).toBe(0)
    },
    240_000,
  )
})
