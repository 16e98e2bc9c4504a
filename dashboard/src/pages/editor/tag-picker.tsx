import type { VNode } from 'preact'
import { useState } from 'preact/hooks'
import { createTag } from '../../data/content.ts'
import { ErrorNote, useSession } from '../../ui.tsx'
import type { TagRef } from './fields.ts'

/**
 * The article's tags: picked from the workspace's tags by name, or made on the spot. A contributor
 * picks from the workspace's tags only (editors make tags): a name that is not one of them is
 * answered here, in words, rather than sent to be refused.
 */
export function TagPicker({
  value,
  known,
  onChange,
  onCreated,
}: {
  value: string[]
  known: TagRef[]
  onChange: (slugs: string[]) => void
  onCreated: () => void
}): VNode {
  const [text, setText] = useState('')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<unknown>()
  const [unknownName, setUnknownName] = useState('')
  const canCreate = useSession().role !== 'contributor'
  const bySlug = new Map(known.map((t) => [t.slug, t]))
  const [made, setMade] = useState<TagRef[]>([])
  for (const t of made) bySlug.set(t.slug, t)
  const add = async () => {
    const name = text.trim()
    if (!name) return
    setError(undefined)
    setUnknownName('')
    const found = [...bySlug.values()].find(
      (t) => t.name.toLowerCase() === name.toLowerCase() || t.slug === name.toLowerCase(),
    )
    let tag = found
    if (!tag && !canCreate) {
      setUnknownName(name)
      return
    }
    if (!tag) {
      setBusy(true)
      try {
        tag = await createTag(name)
        setMade((m) => [...m, tag!])
        onCreated()
      } catch (e) {
        setError(e)
        return
      } finally {
        setBusy(false)
      }
    }
    if (!value.includes(tag.slug)) onChange([...value, tag.slug])
    setText('')
  }
  const choices = [...bySlug.values()].filter((t) => !value.includes(t.slug))
  return (
    <div class="field">
      <span id="tags-label">Tags</span>
      <ul class="chips" aria-labelledby="tags-label">
        {value.map((slug, i) => (
          <li class="chip">
            {bySlug.get(slug)?.name ?? slug}
            {i === 0 ? (
              <>
                {' '}
                <small class="muted">primary</small>
              </>
            ) : null}
            <button
              type="button"
              class="link"
              aria-label={`Remove the tag ${bySlug.get(slug)?.name ?? slug}`}
              onClick={() => onChange(value.filter((s) => s !== slug))}
            >
              ×
            </button>
          </li>
        ))}
      </ul>
      <div class="row">
        <input
          class="grow"
          aria-label="Add a tag"
          list="tag-choices"
          maxlength={100}
          value={text}
          placeholder={canCreate ? 'Pick or type a new tag' : 'Pick a tag'}
          onInput={(e: Event) => setText((e.target as HTMLInputElement).value)}
          onKeyDown={(e: KeyboardEvent) => {
            if (e.key === 'Enter') {
              e.preventDefault()
              add()
            }
          }}
        />
        <button type="button" onClick={add} disabled={busy || !text.trim()} aria-busy={busy}>
          Add tag
        </button>
      </div>
      <datalist id="tag-choices">
        {choices.map((t) => (
          <option value={t.name}></option>
        ))}
      </datalist>
      <small>
        {canCreate
          ? "A name not yet among the workspace's tags makes a new tag. "
          : "Pick from the workspace's tags; editors add new ones. "}
        The first tag is the primary one.
      </small>
      {unknownName ? (
        <p class="note" role="status">
          “{unknownName}” is not one of the workspace's tags. Pick one of them, or suggest it to the editors
          when you submit the draft for review.
        </p>
      ) : null}
      <ErrorNote error={error} />
    </div>
  )
}
