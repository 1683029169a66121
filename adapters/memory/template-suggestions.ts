/** Template analyses in memory: each with its suggestions, and the hold of a create call. */
import { Effect, Layer, Option } from "effect"
import { TemplateAnalysesRepo, type TemplateAnalysis } from "../../ports/store/template-suggestions.ts"
import { memoryTables, setIn, violation } from "./db.ts"

interface Hold {
  readonly holder: string
  readonly until: number
}

export const templateSuggestionTables = () => ({
  templateAnalyses: new Map<string, TemplateAnalysis>(),
  templateAnalysisHolds: new Map<string, Hold | null>(),
})

export const TemplateAnalysesRepoMemory = Layer.effect(
  TemplateAnalysesRepo,
  Effect.map(memoryTables(templateSuggestionTables), (db) => ({
    insert: (analysis) =>
      db.write((t, record) => {
        if (t.templateAnalyses.has(analysis.id)) violation(`duplicate template analysis ${analysis.id}`)
        setIn(t.templateAnalyses, analysis.id, analysis, record)
        setIn(t.templateAnalysisHolds, analysis.id, null, record)
      }),
    get: (applicationId, id) =>
      db.read((t) =>
        Option.filter(Option.fromNullable(t.templateAnalyses.get(id)), (a) => a.applicationId === applicationId)
      ),
    lease: (id, holder, now, until) =>
      db.write((t, record) => {
        if (!t.templateAnalyses.has(id)) return false
        const held = t.templateAnalysisHolds.get(id) ?? null
        if (held !== null && held.until > now) return false
        setIn(t.templateAnalysisHolds, id, { holder, until }, record)
        return true
      }),
    release: (id, holder) =>
      db.write((t, record) => {
        if (t.templateAnalysisHolds.get(id)?.holder === holder) setIn(t.templateAnalysisHolds, id, null, record)
      }),
    pick: (id, keys, at) =>
      db.write((t, record) => {
        const analysis = t.templateAnalyses.get(id)
        if (analysis === undefined) return
        const picked = new Set(keys)
        const suggestions = analysis.suggestions.map((s) =>
          picked.has(s.key) && (s.state === "suggested" || s.state === "failed")
            ? { ...s, state: "picked" as const, error: null, pickedAt: at }
            : s
        )
        setIn(t.templateAnalyses, id, { ...analysis, suggestions }, record)
      }),
    settle: (id, outcome) =>
      db.write((t, record) => {
        const analysis = t.templateAnalyses.get(id)
        if (analysis === undefined) return
        const suggestions = analysis.suggestions.map((s) =>
          s.key === outcome.key ? { ...s, state: outcome.state, error: outcome.error, madeOrder: outcome.madeOrder } : s
        )
        setIn(t.templateAnalyses, id, { ...analysis, suggestions }, record)
      }),
  })),
)
