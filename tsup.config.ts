import { execFileSync } from "node:child_process"
import { cpSync, rmSync } from "node:fs"
import { defineConfig, type Options, type Plugin } from "tsup"

/**
 * What the package ships beside its code: the documents' fonts (adapters/documents/fonts.ts reads them from
 * dist/fonts/), the migrated empty store every new PGlite store starts from (adapters/sql/snapshot.ts, made
 * when stale, in dist/store-snapshot/) and docs/openapi.json (scripts/openapi.ts, written when stale: the
 * operations' document is never written by hand). The test command's global setup makes the same two.
 */
const besideTheCode = async () => {
  cpSync("adapters/documents/fonts", "dist/fonts", { recursive: true })
  const script = (...args: Array<string>) =>
    execFileSync(process.execPath, ["--import", "tsx", ...args], { stdio: "inherit" })
  script("scripts/snapshot.ts", "--out", "dist/store-snapshot")
  script("scripts/openapi.ts")
}

/**
 * The bundles in ASCII where the only other characters are in comments (an em dash in a library's JSDoc, a note in
 * Arabic): V8 holds a script's source as one byte a character only when every character is Latin-1, so one such
 * character doubled the platform's 1.1 MB source in every process' heap (issue 28). esbuild already escapes strings;
 * here a comment line's characters are escaped too (each build's own chunks, before they are written). A line of
 * code with such a character is left as it is.
 */
const asciiComments: Plugin = {
  name: "ascii-comments",
  renderChunk: (code) =>
    /^[\x00-\x7f]*$/.test(code) ? undefined : {
      code: code.split("\n").map((line) =>
        /^\s*(\/\/|\/?\*)/.test(line) || /\/\/ /.test(line.replace(/[^\x00-\x7f].*$/, ""))
          ? line.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)
          : line
      ).join("\n"),
    },
}

/**
 * What this run of tsup builds (scripts/ensure-built.mjs sets it): everything (`npm run build`, `npm pack`), the code
 * only (`PLATFORM_BUILD=code`: `npm start` and the tests' hosts, 6 s where the declarations take another 26 s and
 * 46 CPU-seconds), or the declarations only (`PLATFORM_BUILD=declarations`, into the dist/ the code build made).
 */
const part = process.env.PLATFORM_BUILD ?? "all"
if (!["all", "code", "declarations"].includes(part)) {
  throw new Error(`PLATFORM_BUILD=${part}: expected "all" (the default), "code" or "declarations"`)
}

// dist/ is emptied once, before both builds write to it (a `clean` of one build could race the other's output); the
// declarations alone are written beside the code already built, which a running host may be reading.
if (part !== "declarations") rmSync("dist", { recursive: true, force: true })

/**
 * Packages of many small modules that every start of the Node host loads, bundled into it as Effect is (issue 28):
 * libphonenumber-js (about 40 modules), the console's renderer (preact), IP ranges, image sizes, the snapshot's tar.
 */
const bundledInHost = [
  "libphonenumber-js",
  "preact",
  "preact-render-to-string",
  "ipaddr.js",
  "image-size",
  "nanotar",
].map((name) => `${name.replace(/[.]/g, "\\.")}($|/)`)

/**
 * What both builds are: ES modules for Node 20, split only where the code loads a module lazily (the PDF renderer:
 * adapters/documents/pdf-lib.ts), comments in ASCII.
 */
const common = {
  format: ["esm"],
  target: "node20",
  platform: "node",
  splitting: true,
  plugins: [asciiComments],
} satisfies Options

const library = {
  ...common,
  entry: { "mod": "mod.ts" },
  sourcemap: true,
  dts: part === "code" ? false : { entry: { mod: "mod.ts" }, only: part === "declarations" },
  // The library's dependencies stay external: they are installed beside the package, and an app that embeds
  // it shares its `effect` with the platform.
  skipNodeModulesBundle: true,
  ...(part === "declarations" ? {} : { onSuccess: besideTheCode }),
} satisfies Options

const host = {
  // The standalone Node host (`npm start`) is one file with Effect inside it: Node's ESM loader takes
  // `effect` and `@effect/*` from their barrels as hundreds of modules (0.25 s for `import "effect"` alone;
  // Deno and Bun load them faster). With the OpenAPI document made lazily, start to /healthz on an existing
  // store went from 1.36-1.40 s to 0.97-1.05 s (bench/startup.ts). The drivers stay external (PGlite finds
  // its WebAssembly beside its own module).
  ...common,
  entry: { "hosts/node": "hosts/node.ts" },
  // No source map: 9 MB in the package for a bundle of the same sources.
  sourcemap: false,
  noExternal: [
    /^effect($|\/)/,
    /^@effect\//,
    "fast-check",
    "multipasta",
    ...bundledInHost.map((p) => new RegExp(`^${p}`)),
  ],
  // Every other package stays external (drivers, their CommonJS helpers such as pg-cursor, the PDF library).
  external: [new RegExp(`^(?![./]|effect($|/)|@effect/|fast-check$|multipasta$|${bundledInHost.join("|")})`)],
} satisfies Options

export default defineConfig(part === "declarations" ? [library] : [library, host])
