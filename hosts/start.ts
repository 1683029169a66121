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
  // `--demo`: a fresh demo key pair when the store already holds the demo account.
  const args = (globalThis as { process?: { argv: Array<string> } }).process?.argv ?? []
  const platform = await makePlatform(settings, args.includes("--demo") ? { demo: "reissue" } : {})
  return { settings, platform }
}

/** The address to print: loopback when listening on every interface, else the address itself. */
const shownHost = (host: string) =>
  host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host.includes(":") ? `[${host}]` : host

/** The start lines, in the pinned order. */
export const banner = ({ platform, settings }: Started, port: number): ReadonlyArray<string> => {
  const lines = [`listening on http://${shownHost(settings.host)}:${port}`, `console token: ${settings.consoleToken}`]
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
