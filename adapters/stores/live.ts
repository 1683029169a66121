/**
 * The live store platforms (`STORE_PROVIDER=live`): Salla's Admin API v2 and Zid's Merchant API behind one
 * `StorePlatforms`, each store read by its own platform with the merchant's token the store holds.
 */
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import * as HttpClient from "@effect/platform/HttpClient"
import { Config, type Duration, Effect, Layer, type Option, type Redacted } from "effect"
import { StorePlatforms } from "../../ports/store-platforms.ts"
import { STORE_API_DEFAULT_TIMEOUT } from "./http.ts"
import { readSalla, SALLA_DEFAULT_API_URL } from "./salla.ts"
import { readZid, ZID_DEFAULT_API_URL } from "./zid.ts"

export interface LiveStoresConfig {
  readonly sallaUrl: string
  readonly zidUrl: string
  /** The partner app's token Zid gave (`Authorization`); Zid stores are unreachable without it. */
  readonly zidAuthorization: Option.Option<Redacted.Redacted<string>>
  readonly timeout?: Duration.DurationInput
}

/** Environment configuration of `STORE_PROVIDER=live`. */
export const LiveStoresConfigFromEnv: Config.Config<LiveStoresConfig> = Config.all({
  sallaUrl: Config.withDefault(Config.string("SALLA_API_URL"), SALLA_DEFAULT_API_URL),
  zidUrl: Config.withDefault(Config.string("ZID_API_URL"), ZID_DEFAULT_API_URL),
  zidAuthorization: Config.option(Config.redacted("ZID_AUTHORIZATION")),
})

/** The live platforms from plain values; needs an `HttpClient`. */
export const makeLiveStores = (config: LiveStoresConfig) =>
  Effect.map(HttpClient.HttpClient, (client): StorePlatforms["Type"] => {
    const timeout = config.timeout ?? STORE_API_DEFAULT_TIMEOUT
    const salla = readSalla(client, config.sallaUrl, timeout)
    const zid = readZid(client, config.zidUrl, config.zidAuthorization, timeout)
    return { read: (store) => (store.platform === "salla" ? salla(store) : zid(store)) }
  })

/** The live platforms from the environment, on the platform `fetch`. */
export const StorePlatformsLive = Layer.effect(
  StorePlatforms,
  Effect.flatMap(LiveStoresConfigFromEnv, makeLiveStores),
).pipe(Layer.provide(FetchHttpClient.layer))
