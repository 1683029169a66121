/**
 * The library's public entry: the layers to compose, the route table, the shared dispatcher, the
 * Effect HTTP app and the web-standard handler for embedding.
 */
export { PlatformConfig, type Settings, settingsFromEnv } from "./adapters/config.ts"
export {
  makePlatform,
  type Platform,
  platformLayer,
  type PlatformOptions,
  routes,
  storeLayer,
} from "./adapters/platform.ts"
export { type Dispatch, makeDispatcher, type PlainRequest, type PlainResponse } from "./adapters/http/dispatcher.ts"
export { type CallerAddress, directWebHandler, webHandler } from "./adapters/http/web.ts"
export { makeHttpApp } from "./adapters/http/http-app.ts"
export * as Errors from "./core/errors.ts"
export { Verify } from "./core/verify/service.ts"
export { Console } from "./core/console/service.ts"
