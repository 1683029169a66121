// `npm run openapi`: writes docs/openapi.json from the operation declarations (the server serves the same
// document at GET /openapi.json; test/http/openapi.test.ts holds the file to it).
import { writeFileSync } from "node:fs"
import { declaredOperations } from "../adapters/platform.ts"
import { openApiOf } from "../adapters/products.ts"

const document = openApiOf()
writeFileSync(new URL("../docs/openapi.json", import.meta.url), `${JSON.stringify(document, null, 2)}\n`)
console.log(`docs/openapi.json: ${Object.keys(document.paths).length} paths, ${declaredOperations.length} operations`)
