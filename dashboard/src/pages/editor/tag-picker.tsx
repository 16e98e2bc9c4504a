import type { VNode } from 'preact'
import { useState } from 'preact/hooks'
import { createTag } from '../../data/content.ts'
import { ErrorNote } from '../../ui.tsx'
import type { TagRef } from './fields.ts'

/** The article's tags: picked from the workspace's tags by name, or made on the spot. */
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
  const bySlug = new Map(known.map((t) => [t.slug, t]))
  const [made, setMade] = useState<TagRef[]>([])
  for (const t of made) bySlug.set(t.slug, t)
  const add = async () => {
    const name = text.trim()
    if (!name) return
    setError(undefined)
    const found = [...bySlug.values()].find(
      (t) => t.name.toLowerCase() === name.toLowerCase() || t.slug === name.toLowerCase(),
    )
    let tag = found
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
          placeholder="Pick or type a new tag"
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
        A name not yet among the workspace's tags makes a new tag. The first tag is the primary one.
      </small>
      <ErrorNote error={error} />
    </div>
  )
}
