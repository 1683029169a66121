/**
 * The platform's logs: Effect's own Logger, at the level `LOG_LEVEL` names. Without a logger of the host's, one
 * JSON line each (`Logger.json`'s text), or Effect's pretty logger when stdout is a terminal. A host hands its own logger
 * as a layer (`makePlatform(settings, { logger })`, README "Logs"); the level applies to it too.
 */
import { Layer, Logger, LogLevel, Option } from "effect"

export const logLevels = ["debug", "info", "warn", "error", "none"] as const
export type LogLevelName = (typeof logLevels)[number]

/** The level when neither `LOG_LEVEL` nor the settings name one. */
export const defaultLogLevel: LogLevelName = "info"

const levels: { readonly [N in LogLevelName]: LogLevel.LogLevel } = {
  debug: LogLevel.Debug,
  info: LogLevel.Info,
  warn: LogLevel.Warning,
  error: LogLevel.Error,
  none: LogLevel.None,
}

export const logLevelOf = (name: LogLevelName | undefined): LogLevel.LogLevel => levels[name ?? defaultLogLevel]

declare const process: {
  readonly stdout?: { readonly isTTY?: boolean; readonly write?: (text: string) => unknown }
  readonly on?: (event: "exit", listener: () => void) => unknown
} | undefined

/** Whether stdout is a terminal (Node, Bun, and Deno's `process`); false when there is no `process` at all. */
const stdoutIsTerminal = (): boolean => typeof process !== "undefined" && process?.stdout?.isTTY === true

const nextTurn: (f: () => void) => void = (globalThis as { setImmediate?: (f: () => void) => void }).setImmediate ??
  ((f) => setTimeout(f, 0))

/** The lines not written yet, of every platform of the process (one buffer, one exit listener). */
let pending: Array<string> = []
let exitListener = false

const flush = () => {
  if (pending.length === 0) return
  const text = pending.join("\n") + "\n"
  pending = []
  const stdout = typeof process !== "undefined" ? process?.stdout : undefined
  if (stdout?.write !== undefined) stdout.write(text)
  else console.log(text.slice(0, -1))
}

const buffered = (line: string) => {
  if (!exitListener && typeof process !== "undefined") {
    exitListener = true
    process?.on?.("exit", flush)
  }
  if (pending.push(line) === 1) nextTurn(flush)
}

/**
 * `Logger.json`'s lines (Effect's `jsonLogger`, the same text), written to stdout together once per turn of the event
 * loop rather than one write each: under load a turn answers many requests, and a write to a pipe is a system call
 * (docs/performance.md, "Logs"). What is left is written when the process exits.
 */
export const jsonLines = (): Layer.Layer<never> =>
  Logger.replace(Logger.defaultLogger, Logger.map(Logger.jsonLogger, buffered))

/** JSON lines, or the pretty logger on a terminal. */
export const defaultPlatformLogger = (): Layer.Layer<never> => stdoutIsTerminal() ? Logger.pretty : jsonLines()

/**
 * The logger every fiber of the platform logs through (the jobs, the migrations at start, each request's line):
 * the host's own (`own`) or the default, filtered at `level`.
 */
export const platformLogger = (level: LogLevelName | undefined, own?: Layer.Layer<never>): Layer.Layer<never> =>
  Layer.provideMerge(
    own ?? defaultPlatformLogger(),
    Layer.merge(
      Logger.minimumLogLevel(logLevelOf(level)),
      // Effect's own line for each request fiber that ends in a failure (a 404, a 401): the request's line says
      // it, and a defect is logged with its request id (adapters/http/request-log.ts).
      Layer.setUnhandledErrorLogLevel(Option.none()),
    ),
  )
