/**
 * Provider calls logged (issue 32): every call of a provider's port (the e-mail provider, the chat network) at
 * `debug` with the provider, the call's name and its duration, a failed one at `warn` with the error's tag and the
 * provider's code when it gives one. Never an argument or an answer: they hold numbers, addresses and texts.
 */
import { Effect } from "effect"

const took = (started: number) => Math.round((performance.now() - started) * 1000) / 1000

/** `service` with each of its functions that answers an Effect logged as a call of `port` at `provider`. */
export const loggedCalls = <S extends object>(port: string, provider: string, service: S): S => {
  const logged: Record<string, unknown> = {}
  for (const [name, member] of Object.entries(service)) {
    logged[name] = typeof member !== "function" ? member : (...args: Array<unknown>) => {
      const answer = member.apply(service, args)
      if (!Effect.isEffect(answer)) return answer
      const started = performance.now()
      return (answer as Effect.Effect<unknown, unknown, unknown>).pipe(
        Effect.tap(() =>
          Effect.logDebug(`${port}.${name}`).pipe(
            Effect.annotateLogs({ provider, outcome: "ok", duration_ms: took(started) }),
          )
        ),
        Effect.tapError((error) => {
          const e = error as { readonly _tag?: unknown; readonly providerCode?: unknown }
          return Effect.logWarning(`${port}.${name}`).pipe(
            Effect.annotateLogs({
              provider,
              outcome: "failed",
              error: typeof e?._tag === "string" ? e._tag : "unknown",
              ...(typeof e?.providerCode === "string" ? { provider_code: e.providerCode } : {}),
              duration_ms: took(started),
            }),
          )
        }),
      )
    }
  }
  return logged as S
}
