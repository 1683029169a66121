/**
 * The webhook transport over the runtime's `fetch`: one POST, aborted after the timeout, redirects not
 * followed (a 3xx is not a success). The receiver's body is discarded.
 */
import { Effect, Layer } from "effect"
import { TransportFailure, WebhookTransport } from "../../ports/webhook-transport.ts"

const describe = (error: unknown, timedOut: boolean, timeoutMs: number): string => {
  if (timedOut) return `no answer within ${timeoutMs} ms`
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause
  const detail = cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error))
  return `connection failed: ${detail}`
}

export const post = (url: string, headers: Readonly<Record<string, string>>, body: string, timeoutMs: number) =>
  Effect.async<{ status: number; latencyMs: number }, TransportFailure>((resume) => {
    const started = performance.now()
    const latency = () => Math.round(performance.now() - started)
    const controller = new AbortController()
    let timedOut = false
    const timer = setTimeout(() => {
      timedOut = true
      controller.abort()
    }, timeoutMs)
    fetch(url, { method: "POST", headers, body, redirect: "manual", signal: controller.signal })
      .then(async (res) => {
        const latencyMs = latency()
        clearTimeout(timer)
        await res.body?.cancel().catch(() => undefined)
        resume(Effect.succeed({ status: res.status, latencyMs }))
      })
      .catch((error) => {
        clearTimeout(timer)
        resume(
          Effect.fail(new TransportFailure({ message: describe(error, timedOut, timeoutMs), latencyMs: latency() })),
        )
      })
    return Effect.sync(() => {
      clearTimeout(timer)
      controller.abort()
    })
  })

export const FetchWebhookTransport = Layer.succeed(WebhookTransport, { post })
