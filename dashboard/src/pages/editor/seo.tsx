/** The SEO panel: meta title and description, canonical URL, and how a search result and a social card show them. */
import type { VNode } from 'preact'
import { Counted } from './counted.tsx'
import { type Fields, httpsOnly } from './fields.ts'

export function Seo({
  fields,
  set,
  domain,
  excerpt,
}: {
  fields: Fields
  set: (p: Partial<Fields>) => void
  domain: string | null
  excerpt: string
}): VNode {
  const title = fields.metaTitle.trim() || fields.title.trim()
  const description = fields.metaDescription.trim() || excerpt
  const address =
    fields.canonicalUrl.trim() || (domain ? `https://${domain}/${fields.slug}` : `…/${fields.slug}`)
  const image = httpsOnly(fields.imageUrl)
  return (
    <section class="card" aria-label="SEO">
      <h2>SEO and social</h2>
      <Counted
        label="Meta title"
        value={fields.metaTitle}
        max={300}
        soft={60}
        placeholder={fields.title}
        onInput={(v: string) => set({ metaTitle: v })}
      />
      <Counted
        label="Meta description"
        value={fields.metaDescription}
        max={500}
        soft={155}
        multiline
        placeholder={excerpt}
        onInput={(v: string) => set({ metaDescription: v })}
      />
      <label class="field">
        <span>Canonical URL</span>
        <input
          aria-label="Canonical URL"
          type="url"
          maxlength={2000}
          value={fields.canonicalUrl}
          placeholder="https://… (where the original lives, if elsewhere)"
          onInput={(e: Event) => set({ canonicalUrl: (e.target as HTMLInputElement).value })}
        />
        <small>https:// only; empty: the article's own address</small>
      </label>
      <div class="serp" aria-label="Search result preview" role="img">
        <small class="muted">{address}</small>
        <strong class="serp-title" title={title}>
          {title.length > 60 ? `${title.slice(0, 59)}…` : title}
        </strong>
        <p title={description}>{description.length > 155 ? `${description.slice(0, 154)}…` : description}</p>
      </div>
      <div class="social" aria-label="Social card preview" role="img">
        {image ? <img src={image} alt="" /> : null}
        <div>
          <small class="muted">{domain ?? 'your site'}</small>
          <strong class="social-title">{title}</strong>
          <p>{description}</p>
        </div>
      </div>
      <small class="muted">
        Sites build their og:title, og:description and og:image from these fields and the feature image.
      </small>
    </section>
  )
}
