/**
 * A type checker's state kept between runs of the test command (issue 28), for the proofs that check a project made
 * anew in a temporary folder each run (test/frame/adding-a-product.test.ts, test/package/npm-tarball.test.ts): the
 * files of the last run that passed (`tsc --incremental`'s .tsbuildinfo, with its output where the run emits) are
 * kept in node_modules/.cache/<name>/ and put into the new folder before the checker runs. tsc compares every file's
 * text, the options and its own version with the state, so what changed is checked again; a fresh clone has no state
 * and checks everything.
 */
import { cpSync, existsSync, mkdirSync, rmSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"

const cache = fileURLToPath(new URL("../../node_modules/.cache/", import.meta.url))

export interface CheckerState {
  /** Puts the kept files into `folder` (when every one of them is kept). */
  readonly restore: (folder: string) => void
  /** Keeps `folder`'s files for the next run: call it once the check passed. */
  readonly save: (folder: string) => void
}

export const checkerState = (name: string, files: ReadonlyArray<string>): CheckerState => {
  const kept = join(cache, name)
  return {
    restore: (folder) => {
      if (!files.every((f) => existsSync(join(kept, f)))) return
      for (const f of files) cpSync(join(kept, f), join(folder, f), { recursive: true })
    },
    save: (folder) => {
      rmSync(kept, { recursive: true, force: true })
      mkdirSync(kept, { recursive: true })
      for (const f of files) cpSync(join(folder, f), join(kept, f), { recursive: true })
    },
  }
}
