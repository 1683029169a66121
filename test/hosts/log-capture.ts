/**
 * The platform's log lines as the default logger writes them (Effect's `Logger.jsonLogger`, what `Logger.json`
 * prints), captured instead of printed: handed to `makePlatform` as a host's own logger (`logger`).
 */
import { Layer, Logger } from "effect"

export interface LogLine {
  readonly message: string
  readonly logLevel: string
  readonly timestamp: string
  readonly cause?: string
  readonly annotations: Record<string, unknown>
}

export interface Captured {
  readonly layer: Layer.Layer<never>
  /** Every line, as printed. */
  readonly text: () => string
  readonly lines: () => ReadonlyArray<LogLine>
  /** The request lines. */
  readonly requests: () => ReadonlyArray<LogLine>
  readonly clear: () => void
}

export const captureLogs = (): Captured => {
  const printed: Array<string> = []
  const lines = () => printed.map((l) => JSON.parse(l) as LogLine)
  return {
    layer: Logger.replace(Logger.defaultLogger, Logger.map(Logger.jsonLogger, (line) => void printed.push(line))),
    text: () => printed.join("\n"),
    lines,
    requests: () => lines().filter((l) => l.message === "request"),
    clear: () => void (printed.length = 0),
  }
}
