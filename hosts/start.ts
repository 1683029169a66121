/**
 * What every host does at start (DECISIONS 1): answer `--help` and `--version`, read and check the settings
 * and the store's preconditions (a refused one: one line on stderr, exit code 2), build the platform, print
 * the banner.
 */
import { readFileSync } from "node:fs"
import { Effect, Either } from "effect"
import {
  type Entry,
  readEntry,
  type SettingRefused,
  type Settings,
  settingsFromEnv,
  variables,
} from "../adapters/config.ts"
import type { Platform } from "../adapters/platform.ts"
import { preflight } from "../adapters/preflight.ts"

export interface Started {
  readonly settings: Settings
  readonly platform: Platform
}

declare const process: {
  argv: Array<string>
  exit: (code: number) => never
  stdout: { write: (s: string) => void }
  stderr: { write: (s: string) => void }
}

/** The package's version, from the package.json above the sources (hosts/) or the build (dist/hosts/). */
const version = (): string => {
  for (const up of ["../package.json", "../../package.json"]) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(up, import.meta.url), "utf8"))
      if (pkg.name === "@sa-messaging/platform") return `${pkg.name} ${pkg.version}`
    } catch {
      // not there: the next one up
    }
  }
  return "@sa-messaging/platform (version unknown)"
}

const help = (): string =>
  [
    "Usage: npm start [-- --demo]   (also: npm run start:deno, npm run start:bun)",
    "",
    "Starts the messaging platform's HTTP server. Options:",
    "  --demo      issue a fresh demo key pair when the store already holds the demo account",
    "  --help      print this and exit",
    "  --version   print the version and exit",
    "",
    "Settings (environment variables; docs/configuration.md explains each):",
    ...variables().map((v) => `  ${v.env.padEnd(22)} ${v.accepts} [default: ${v.default}]`),
    "",
  ].join("\n")

/** `--help` and `--version` answer and exit instead of starting. */
export const answerCommandLine = (args: ReadonlyArray<string> = process.argv.slice(2)): void => {
  if (args.includes("--help") || args.includes("-h")) {
    process.stdout.write(help())
    process.exit(0)
  }
  if (args.includes("--version") || args.includes("-v")) {
    process.stdout.write(version() + "\n")
    process.exit(0)
  }
}

/** The value of `read`, or, when a setting is refused, its one line on stderr and exit code 2. */
const orStop = async <A>(read: Effect.Effect<A, SettingRefused>): Promise<A> => {
  const checked = await Effect.runPromise(Effect.either(read))
  if (Either.isRight(checked)) return checked.right
  process.stderr.write(checked.left.oneLine + "\n")
  return process.exit(2)
}

/** The settings, checked with the store's preconditions; a refused one stops the process (one line, exit 2). */
export const checkedSettings = (): Promise<Settings> => orStop(Effect.tap(settingsFromEnv, preflight))

/** One setting a host needs before the others (the Bun host's server). */
export const checkedSetting = <A>(entry: Entry<A>): Promise<A> => orStop(readEntry(entry))

export const boot = async (): Promise<Started> => {
  answerCommandLine()
  const settings = await checkedSettings()
  // Loaded once the settings are accepted: a refused one is told before the platform's modules load.
  const { makePlatform } = await import("../adapters/platform.ts")
  // `--demo`: a fresh demo key pair when the store already holds the demo account.
  const platform = await makePlatform(settings, process.argv.includes("--demo") ? { demo: "reissue" } : {})
  return { settings, platform }
}

/** The address to print: loopback when listening on every interface, else the address itself. */
const shownHost = (host: string) =>
  host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host.includes(":") ? `[${host}]` : host

/** The start lines, in the pinned order. */
export const banner = ({ platform, settings }: Started, port: number): ReadonlyArray<string> => {
  const listening = `http://${shownHost(settings.host)}:${port}`
  // The console's pages (sign in there with the token above; adapters/console/serve.tsx).
  const lines = [
    `listening on ${listening}`,
    `console token: ${settings.consoleToken}`,
    `console: ${listening}/console/`,
  ]
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
