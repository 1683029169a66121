// `npm run openapi`: writes docs/openapi.json, the document of the declared operations (the server serves the
// same document at GET /openapi.json; test/http/openapi.test.ts holds the file to it), when it is missing or
// stale. The build (tsup.config.ts) and the test command's global setup (test/support/global-setup.ts) run it,
// so an operation added or changed rewrites the file, to be committed with it. `--check` writes nothing and
// exits 1 with the reason when it would write (CI, .ci/run).
import { existsSync, readFileSync, writeFileSync } from "node:fs"
import { declaredOperations } from "../adapters/platform.ts"
import { openApiOf } from "../adapters/products.ts"

const file = new URL("../docs/openapi.json", import.meta.url)
const document = openApiOf()
const text = `${JSON.stringify(document, null, 2)}\n`
const stale = !existsSync(file)
  ? "there is none"
  : readFileSync(file, "utf8") !== text
  ? "it is not the declared operations' document"
  : undefined
const counts = `${Object.keys(document.paths).length} paths, ${declaredOperations.length} operations`

if (process.argv.includes("--check")) {
  if (stale !== undefined) {
    console.error(
      `docs/openapi.json is stale: ${stale}. Run \`npm run openapi\` (or the build, or npm test) and commit it.`,
    )
    process.exit(1)
  }
  console.log(`docs/openapi.json: up to date (${counts})`)
} else if (stale === undefined) {
  console.log(`docs/openapi.json: up to date (${counts})`)
} else {
  writeFileSync(file, text)
  console.log(`docs/openapi.json: written (${stale}): ${counts}; commit it with the operations`)
}
