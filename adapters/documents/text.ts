/**
 * Text in any direction as runs a PDF can draw left to right: the Unicode Bidirectional Algorithm (bidi-js)
 * orders a line's runs visually, and each run is handed to the font's own OpenType layout (fontkit, through
 * pdf-lib), which shapes Arabic (initial, medial, final and isolated forms, the lam-alef ligatures) and
 * reverses a right-to-left run itself.
 */
import bidiFactory, { type Bidi } from "bidi-js"

// The package's one export, the factory, is its CommonJS `module.exports`: the default import everywhere at run
// time, though Deno types that import as the declaration's namespace.
const bidi = (bidiFactory as unknown as () => Bidi)()

/** A run of one embedding level, in logical order; `rtl` when it is drawn right to left. */
export interface Run {
  readonly text: string
  readonly rtl: boolean
}

/** fontkit lays a run out right to left when its first character of a script (not Common, Inherited or Unknown: unassigned, private use) is of a right-to-left one. */
const firstScript = /[^\p{Script=Common}\p{Script=Inherited}\p{Cn}\p{Co}\p{Cs}]/u
const rtlScript = /[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}]/u
const fontkitRtl = (text: string): boolean => rtlScript.test(firstScript.exec(text)?.[0] ?? "")

/**
 * The text a font lays out to show `run` in its direction: the run itself when fontkit would lay it out that
 * way already, else its characters reversed (a right-to-left run of neutrals only, such as " - "; a
 * left-to-right run of Arabic-Indic digits), which fontkit then reverses back or leaves.
 */
export const layoutText = (run: Run): string =>
  fontkitRtl(run.text) === run.rtl ? run.text : Array.from(run.text).reverse().join("")

/**
 * A line's runs in visual order, left to right (the paragraph's direction from its first strong character),
 * with mirrored characters (brackets) swapped in the right-to-left runs. Characters in `drop` (those a font has
 * no glyph for and shows nothing for anyway, such as bidi marks) are left out after the ordering used them.
 */
export const visualRuns = (line: string, drop: (char: string) => boolean = () => false): ReadonlyArray<Run> => {
  if (line === "") return []
  const embedding = bidi.getEmbeddingLevels(line, "auto")
  const mirrored = bidi.getMirroredCharactersMap(line, embedding.levels)
  const runs: Array<{ text: string; level: number }> = []
  for (let i = 0; i < line.length; i++) {
    const char = mirrored.get(i) ?? line[i]
    const level = embedding.levels[i]
    const last = runs.at(-1)
    if (last !== undefined && last.level === level) last.text += char
    else runs.push({ text: char, level })
  }
  // UAX #9 L2: from the highest level down to the lowest odd one, reverse every sequence at that level or higher.
  const levels = runs.map((r) => r.level)
  const highest = Math.max(...levels)
  const lowestOdd = Math.min(...levels.map((l) => (l % 2 === 1 ? l : l + 1)))
  for (let level = highest; level >= lowestOdd; level--) {
    for (let i = 0; i < runs.length;) {
      if (runs[i].level < level) {
        i++
        continue
      }
      let j = i
      while (j < runs.length && runs[j].level >= level) j++
      runs.splice(i, j - i, ...runs.slice(i, j).reverse())
      i = j
    }
  }
  return runs
    .map((r) => ({ text: Array.from(r.text).filter((c) => !drop(c)).join(""), rtl: r.level % 2 === 1 }))
    .filter((r) => r.text !== "")
}
