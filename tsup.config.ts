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
  // The migrated empty store every new PGlite store starts from, made when stale and shipped beside the bundle.
  onSuccess: "node --import tsx scripts/snapshot.ts --out dist/store-snapshot",
})
