/** What every host does at start (DECISIONS 1): read settings, build the platform, print the banner. */
import { Effect } from "effect"
import { type Settings, settingsFromEnv } from "../adapters/config.ts"
import { makePlatform, type Platform } from "../adapters/platform.ts"

export interface Started {
  readonly settings: Settings
  readonly platform: Platform
}

export const boot = async (): Promise<Started> => {
  const settings = await Effect.runPromise(settingsFromEnv)
  const platform = await makePlatform(settings)
  return { settings, platform }
}

/** The start lines, in the pinned order. */
export const banner = ({ platform, settings }: Started, port: number): ReadonlyArray<string> => {
  const lines = [`listening on http://127.0.0.1:${port}`, `console token: ${settings.consoleToken}`]
  const demo = platform.demo
  if (demo) {
    lines.push(
      `demo account: ${demo.accountId}`,
      `demo application: ${demo.applicationId}`,
      `demo live key: ${demo.liveKey}`,
      `demo test key: ${demo.testKey}`,
      `demo proven destination (test key): ${demo.provenDestination}`,
    )
  }
  return lines
}

export const hostname = () =>
  (globalThis as { process?: { env: Record<string, string | undefined> } }).process?.env.HOST ?? "0.0.0.0"
