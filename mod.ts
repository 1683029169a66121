/**
 * The library's public entry: the layers to compose, the route table, the shared dispatcher, the
 * Effect HTTP app and the web-standard handler for embedding.
 */
export { PlatformConfig, SettingRefused, type Settings, settingsFromEnv } from "./adapters/config.ts"
export {
  makePlatform,
  type Platform,
  platformLayer,
  type PlatformOptions,
  routes,
  storeLayer,
} from "./adapters/platform.ts"
export {
  type Dispatch,
  type EdgeOptions,
  makeDispatcher,
  type PlainRequest,
  type PlainResponse,
} from "./adapters/http/dispatcher.ts"
export { type CallerAddress, directWebHandler, webHandler, type WebHandlerOptions } from "./adapters/http/web.ts"
export { answerParserRefusals } from "./adapters/http/node-parser-refusals.ts"
export {
  close,
  listen,
  nodeHandler,
  type NodeHandlerOptions,
  nodeServer,
  type NodeServerOptions,
  nodeServerOptions,
  stopKeepAlive,
} from "./adapters/http/node.ts"
export { makeHttpApp } from "./adapters/http/http-app.ts"
export * as Errors from "./core/errors.ts"
export { Verify } from "./core/verify/service.ts"
export { Console } from "./core/console/service.ts"
export { ApiErrorResponse, type Client, type ClientOptions, makeClient } from "./adapters/http/client.ts"
export { type AnyOperation, type Operation } from "./core/pipeline/operation.ts"
export { openApiDocument } from "./core/pipeline/openapi.ts"
export { verifyOperations } from "./core/verify/operations.ts"
export { emailOperations } from "./core/email/operations.ts"
