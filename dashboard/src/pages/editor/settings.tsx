/** The article's settings: slug, excerpt, tags and the feature image. */
import type { VNode } from 'preact'
import { useEffect, useState } from 'preact/hooks'
import type { Article, Tag } from '../../data/content.ts'
import { FieldError, fieldError } from '../../ui.tsx'
import { Counted } from './counted.tsx'
import { type Fields, httpsOnly } from './fields.ts'
import { TagPicker } from './tag-picker.tsx'

export function Settings({
  fields,
  set,
  saved,
  tags,
  onTagCreated,
  derivedExcerpt,
  error,
}: {
  fields: Fields
  set: (p: Partial<Fields>) => void
  saved: Article
  tags: Tag[]
  onTagCreated: () => void
  derivedExcerpt: string
  /** The last save's refusal: a field it names shows the message beside it. */
  error?: unknown
}): VNode {
  const slugError = fieldError(error, 'slug')
  const image = httpsOnly(fields.imageUrl)
  const [broken, setBroken] = useState(false)
  useEffect(() => setBroken(false), [image])
  return (
    <section class="card" aria-label="Article settings">
      <h2>Article settings</h2>
      <label class={slugError ? 'field invalid' : 'field'}>
        <span>Slug</span>
        <input
          aria-label="Slug"
          aria-invalid={slugError ? 'true' : undefined}
          aria-describedby={slugError ? 'slug-error' : undefined}
          class="mono"
          maxlength={120}
          value={fields.slug}
          placeholder={saved.slug}
          onInput={(e: Event) => set({ slug: (e.target as HTMLInputElement).value })}
        />
        <FieldError id="slug-error" message={slugError} />
        <small>
          Its address in the site: lower-case words joined by hyphens, unique in the site.
          {saved.status === 'published' ? ' The old slug keeps finding the article.' : ''}
        </small>
      </label>
      <Counted
        label="Excerpt"
        value={fields.excerpt}
        max={500}
        multiline
        placeholder={derivedExcerpt}
        hint="empty: the body's first paragraph (shown greyed)"
        onInput={(v: string) => set({ excerpt: v })}
      />
      <TagPicker
        value={fields.tags}
        known={[...saved.tags, ...tags]}
        onChange={(t: string[]) => set({ tags: t })}
        onCreated={onTagCreated}
      />
      <fieldset class="group">
        <legend>Feature image</legend>
        <label class="field">
          <span>Image URL</span>
          <input
            aria-label="Feature image URL"
            type="url"
            maxlength={2000}
            value={fields.imageUrl}
            placeholder="https://images.example.com/cover.jpg"
            onInput={(e: Event) => set({ imageUrl: (e.target as HTMLInputElement).value })}
          />
          <small>https:// only</small>
        </label>
        <label class="field">
          <span>Alt text</span>
          <input
            aria-label="Feature image alt text"
            maxlength={500}
            value={fields.imageAlt}
            placeholder="What the image shows"
            onInput={(e: Event) => set({ imageAlt: (e.target as HTMLInputElement).value })}
          />
        </label>
        {image && !broken ? (
          <img
            class="feature-preview"
            src={image}
            alt={fields.imageAlt || 'Feature image preview'}
            onError={() => setBroken(true)}
          />
        ) : fields.imageUrl.trim() ? (
          <p class="muted">
            {image
              ? 'The image could not be loaded from that address.'
              : 'No preview: the address must start with https://.'}
          </p>
        ) : null}
      </fieldset>
    </section>
  )
}
