/**
 * The editor's saving: the saved article beside the fields as typed, a save of what differs, the
 * autosave of drafts, the check for a save made elsewhere, and a lifecycle move after saving.
 *
 * Before each save the article is read again: when its revision is no longer the one this editor
 * started from (another tab, another person), nothing is written and `conflict` holds the other
 * version. The API has no If-Match on writes, so this narrows the window to the moment between
 * that read and the write; it does not close it.
 */
import { useEffect, useRef, useState } from 'preact/hooks'
import { ApiError } from '../../api.ts'
import { type Article, getArticle, updateArticle } from '../../data/content.ts'
import { useLeaveGuard } from '../../ui.tsx'
import { changes, type Fields, fieldsOf } from './fields.ts'

/** How long typing must pause before a draft is saved. */
const AUTOSAVE_MS = 1200

const LEAVE_MESSAGE = 'This article has changes that are not saved yet. Leave and lose them?'

export function useArticleSave(initial: Article) {
  const [saved, setSaved] = useState(initial)
  const [fields, setFields] = useState(() => fieldsOf(initial))
  const [saving, setSaving] = useState(false)
  const [saveError, setSaveError] = useState<unknown>()
  const [conflict, setConflict] = useState<Article>()
  const savedRef = useRef(saved)
  const fieldsRef = useRef(fields)
  savedRef.current = saved
  fieldsRef.current = fields
  const inflight = useRef<Promise<Article> | null>(null)

  const pending = changes(fields, saved)
  const dirty = Object.keys(pending).length > 0
  useLeaveGuard(dirty || saving ? LEAVE_MESSAGE : null)

  const set = (patch: Partial<Fields>) => setFields((f) => ({ ...f, ...patch }))
  const take = (next: Article) => {
    savedRef.current = next
    setSaved(next)
  }

  /** Saves what differs now (after any save under way); resolves to the saved article. */
  const saveNow = async (): Promise<Article> => {
    while (inflight.current) await inflight.current.catch(() => undefined)
    const patch = changes(fieldsRef.current, savedRef.current)
    if (!Object.keys(patch).length) return savedRef.current
    const run = (async () => {
      setSaving(true)
      setSaveError(undefined)
      try {
        const current = await getArticle(saved.id)
        if (current.revision_id !== savedRef.current.revision_id) {
          setConflict(current)
          throw new ApiError(
            409,
            'CONFLICT',
            'This article was saved elsewhere since it was opened here: nothing was saved.',
          )
        }
        const next = await updateArticle(saved.id, patch)
        take(next)
        return next
      } catch (e) {
        setSaveError(e)
        throw e
      } finally {
        setSaving(false)
      }
    })()
    inflight.current = run
    try {
      return await run
    } finally {
      inflight.current = null
    }
  }

  // Drafts save themselves once typing pauses; a failed save waits for the next change.
  useEffect(() => {
    if (saved.status !== 'draft' || !dirty || conflict) return
    const timer = setTimeout(() => saveNow().catch(() => undefined), AUTOSAVE_MS)
    return () => clearTimeout(timer)
  }, [fields, saved, conflict])

  /** A move of the article's lifecycle (publish, schedule, …), after saving what differs. */
  const transition = async (move: (id: string) => Promise<Article>) => {
    // The save's own error is shown once, above the editor; the button says why it stopped.
    await saveNow().catch(() => {
      throw new ApiError(0, 'CLIENT', 'Nothing was changed: the edits could not be saved first (see above)')
    })
    take(await move(saved.id))
  }

  /** Ends a conflict: keep the fields as typed (they replace the other version) or load the other. */
  const resolve = (keep: 'mine' | 'theirs') => {
    if (!conflict) return
    take(conflict)
    if (keep === 'theirs') setFields(fieldsOf(conflict))
    setConflict(undefined)
    setSaveError(undefined)
  }

  const state = conflict
    ? { text: 'Not saved: changed elsewhere', tone: 'bad' }
    : saving
      ? { text: 'Saving…', tone: '' }
      : saveError
        ? { text: 'Not saved', tone: 'bad' }
        : dirty
          ? { text: 'Unsaved changes', tone: 'warn' }
          : { text: 'Saved', tone: 'ok' }

  return {
    saved,
    take,
    fields,
    set,
    setFields,
    saving,
    saveError,
    setSaveError,
    conflict,
    resolve,
    dirty,
    state,
    saveNow,
    transition,
  }
}

export type ArticleSave = ReturnType<typeof useArticleSave>
