import { cpSync } from "node:fs"
import { defineConfig } from "tsup"

export default defineConfig({
  entry: { "mod": "mod.ts", "hosts/node": "hosts/node.ts" },
  format: ["esm"],
  target: "node20",
  platform: "node",
  sourcemap: true,
  clean: true,
  dts: { entry: { mod: "mod.ts" } },
  splitting: true,
  // Dependencies stay external: they are installed beside the package.
  skipNodeModulesBundle: true,
  // The documents' fonts, read beside the code that uses them (adapters/documents/fonts.ts: `./fonts/…` from a
  // chunk at dist/'s root).
  onSuccess: async () => cpSync("adapters/documents/fonts", "dist/fonts", { recursive: true }),
})
