/**
 * The documents' typeface: DejaVu Sans 2.37, regular and bold, as the npm package `dejavu-fonts-ttf` 2.37.3 ships
 * them (fonts/, their licence beside them: free to embed and redistribute), which covers Latin,
 * Arabic (with its OpenType joining forms and lam-alef ligatures), Hebrew, Greek and Cyrillic among others.
 * The files sit beside this module and are read relative to it: from the sources on Node, Deno and Bun, from
 * dist/fonts in the npm package (tsup copies them), or over HTTPS when Deno runs the module from a registry.
 * Each file is read and parsed once a process.
 */
import fontkit from "@pdf-lib/fontkit"
import { readFile } from "node:fs/promises"
import type { PDFDocument } from "pdf-lib"

type Fontkit = Parameters<PDFDocument["registerFontkit"]>[0]

type Font = ReturnType<Fontkit["create"]>

export type FontName = "DejaVuSans.ttf" | "DejaVuSans-Bold.ttf"

const bytesAt = async (url: URL): Promise<Uint8Array> =>
  url.protocol === "file:"
    ? new Uint8Array(await readFile(url))
    : new Uint8Array(await (await fetch(url)).arrayBuffer())

/**
 * A font file beside this module: `fonts/` next to it in the sources and in a chunk at dist/'s root, `../fonts/`
 * from the standalone Node host's bundle (dist/hosts/node.js); both are dist/fonts/ in the package.
 */
const fontFile = async (name: string): Promise<Uint8Array> => {
  const here = new URL(`./fonts/${name}`, import.meta.url)
  try {
    return await bytesAt(here)
  } catch (error) {
    if (here.protocol !== "file:") throw error
    return await bytesAt(new URL(`../fonts/${name}`, import.meta.url))
  }
}

/**
 * A view of a parsed font that shares its decoded tables (cmap, GSUB, GPOS, glyf, …) but has its own glyph cache
 * and layout engine. fontkit caches a glyph with the characters it was first asked for, and pdf-lib's ToUnicode
 * map (what text extraction and search read) takes them from there; a subset made for one document also asks for
 * glyphs by id alone, so a cache shared between documents would map some glyphs to the wrong characters.
 */
const viewOf = (parsed: Font): Font => {
  const view = Object.create(parsed) as Font & { _glyphs: Record<number, unknown> }
  view._glyphs = {}
  return view
}

type Shaper = { readonly prototype: object }

/** The shaper (a class of static methods) of a layout of `text` that failed, if it failed. */
const failedShaper = (view: Font, text: string): Shaper | undefined => {
  try {
    view.layout(text)
    return undefined
  } catch {
    // fontkit leaves the engine set up as it was when the shaper failed.
    return (view as unknown as { _layoutEngine?: { engine?: { shaper?: Shaper | null } } })._layoutEngine?.engine
      ?.shaper ?? undefined
  }
}

/**
 * fontkit (Babel's loose classes) gives a subclass its parent's static methods by assigning `__proto__`, which
 * Deno ignores (`Object.prototype.__proto__` is off there): its Arabic shaper, all static methods, then lacks the
 * `plan` it inherits from the default shaper and every Arabic layout throws. Where a layout fails so, the shaper
 * gets its parent (the class its prototype's prototype belongs to) the standard way; on Node and Bun nothing fails
 * and nothing changes.
 */
const repairShapers = (parsed: Font) => {
  const shaper = failedShaper(viewOf(parsed), "\u0628\u0628")
  const parent = shaper && (Object.getPrototypeOf(shaper.prototype) as { constructor?: unknown } | null)?.constructor
  if (shaper !== undefined && typeof parent === "function" && Object.getPrototypeOf(shaper) !== parent) {
    Object.setPrototypeOf(shaper, parent)
  }
}

const loaded = new Map<FontName, Promise<{ readonly bytes: Uint8Array; readonly font: Font }>>()

/** A font's file and its parsed form, read on first use. */
export const loadFont = (name: FontName) => {
  let font = loaded.get(name)
  if (font === undefined) {
    font = fontFile(name).then((bytes) => {
      const parsed = fontkit.create(bytes)
      repairShapers(parsed)
      return { bytes, font: parsed }
    })
    font.catch(() => loaded.delete(name))
    loaded.set(name, font)
  }
  return font
}

/** fontkit for pdf-lib's `registerFontkit` that parses each font once a process and gives a document a view. */
export const sharedFontkit = (fonts: ReadonlyArray<{ readonly bytes: Uint8Array; readonly font: Font }>): Fontkit => ({
  create: (bytes, postscriptName) => {
    const parsed = fonts.find((f) => f.bytes === bytes)?.font
    return parsed === undefined ? fontkit.create(bytes, postscriptName) : viewOf(parsed)
  },
})

/** Whether the font draws the character (a glyph other than `.notdef`). */
export const hasGlyph = (font: Font, char: string): boolean => font.hasGlyphForCodePoint(char.codePointAt(0)!)

/** Whether the font's layout takes `text` (a script whose shaper fails would make the document fail). */
export const laysOut = (font: Font, text: string): boolean => {
  try {
    viewOf(font).layout(text)
    return true
  } catch {
    return false
  }
}
