/**
 * Every SMS gateway, whichever the products offer, logs its sends: at `debug` each one sent, at `warn` each one
 * refused, with the provider, its code and the time taken. Never the number or the text (a code is in it).
 * Whatever else the gateway's layer offers (a test's switch) stays offered; its SmsGateway is the wrapped one.
 */
import { Effect, Layer } from "effect"
import { SmsGateway } from "../../ports/sms.ts"

export const loggedSmsGateway = <E, R>(
  provider: string,
  gateway: Layer.Layer<SmsGateway, E, R>,
): Layer.Layer<SmsGateway, E, R> =>
  Layer.effect(
    SmsGateway,
    Effect.map(SmsGateway, (inner) =>
      SmsGateway.of({
        send: (sms) => {
          const started = performance.now()
          const took = () => Math.round((performance.now() - started) * 1000) / 1000
          return inner.send(sms).pipe(
            Effect.tap(() =>
              Effect.logDebug("sms sent").pipe(
                Effect.annotateLogs({ provider, duration_ms: took() }),
              )
            ),
            Effect.tapError((refused) =>
              Effect.logWarning("sms refused").pipe(
                Effect.annotateLogs({ provider, provider_code: refused.providerCode, duration_ms: took() }),
              )
            ),
          )
        },
      })),
  ).pipe(Layer.provideMerge(gateway))
