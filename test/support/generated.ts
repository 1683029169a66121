/**
 * What the test command's global setup generates from the sources, in one process (test/support/global-setup.ts
 * runs it through tsx): the store snapshot when missing or stale (`npm run snapshot`), then, with DATABASE_URL, the
 * PostgreSQL template named after its manifest (test/support/pg-template.ts), beside docs/openapi.json when stale
 * (`npm run openapi`). One process imports the platform once: three took about 3 CPU-seconds each to load it
 * (issue 28), before any test file could start.
 */
export {}

await import("../../scripts/snapshot.ts")
await Promise.all([
  process.env.DATABASE_URL === undefined
    ? undefined
    : import("./pg-template.ts").then(({ makeTemplateOrWarn }) => makeTemplateOrWarn()),
  import("../../scripts/openapi.ts"),
])
