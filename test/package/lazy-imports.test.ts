/**
 * Issue 28: a start loads what every start uses, and the rest on first use. These packages are imported only where
 * they are used (a dynamic `import()`): the PostgreSQL driver when `DATABASE_URL` makes a store, the mail libraries
 * when an SMTP provider, the inbound listener or a bounce needs them, the PDF libraries at the first proforma, the
 * OTLP exporter when telemetry is on. Each was 50-250 ms and several MB of every start while it was imported
 * statically (docs/performance.md). The test walks the static imports (`import … from`, `export … from`, not
 * `import type`) from the package's entry and each host's, through the project's own modules.
 */
import { readFileSync } from "node:fs"
import { dirname, join, resolve } from "node:path"
import { describe, expect, it } from "vitest"

const root = resolve(import.meta.dirname, "../..")
const loadedOnFirstUse = [
  /^pg($|\/)/,
  /^pg-cursor$/,
  /^@effect\/sql-pg($|\/)/,
  /^mailparser$/,
  /^nodemailer$/,
  /^smtp-server$/,
  /^pdf-lib$/,
  /^@pdf-lib\/fontkit$/,
  /^bidi-js$/,
  /^@effect\/opentelemetry($|\/)/,
]

const staticImport = /^\s*(?:import|export)\s+(?!type\b)(?:[^;"']*?\s+from\s+)?["']([^"']+)["']/gm

/**
 * The packages the module graph from `entries` imports statically, each with a module of the project that imports it,
 * and how many of the project's modules the walk read.
 */
const staticGraph = (entries: ReadonlyArray<string>) => {
  const packages = new Map<string, string>()
  const seen = new Set<string>()
  const visit = (file: string) => {
    if (seen.has(file)) return
    seen.add(file)
    for (const [, specifier] of readFileSync(file, "utf8").matchAll(staticImport)) {
      if (specifier.startsWith(".")) visit(resolve(dirname(file), specifier))
      else if (!specifier.startsWith("node:") && !packages.has(specifier)) {
        packages.set(specifier, file.slice(root.length + 1))
      }
    }
  }
  for (const entry of entries) visit(join(root, entry))
  return { packages, modules: seen.size }
}

describe("issue 28: drivers and libraries a start does not use are loaded on first use", () => {
  const { packages, modules } = staticGraph(["mod.ts", "hosts/node.ts", "hosts/deno.ts", "hosts/bun.ts"])

  it("the walk finds the project's static imports (effect, PGlite, the phone library)", () => {
    expect(packages.has("effect")).toBe(true)
    expect(packages.has("@electric-sql/pglite")).toBe(true)
    expect(packages.has("libphonenumber-js/mobile")).toBe(true)
    expect(modules).toBeGreaterThan(200)
  })

  it("pg, @effect/sql-pg, the mail libraries, the PDF libraries and the OTLP exporter are not among them", () => {
    const found = [...packages].filter(([p]) => loadedOnFirstUse.some((r) => r.test(p)))
    expect(found.map(([p, by]) => `${p} (imported by ${by})`)).toEqual([])
  })
})
