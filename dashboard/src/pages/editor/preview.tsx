/** The editor's preview: the article as readers get it, by the Content API's own renderer. */
import type { VNode } from 'preact'
import { useEffect, useState } from 'preact/hooks'
import type { useRenderer } from '../../renderer.ts'
import { ErrorNote } from '../../ui.tsx'
import { type Fields, httpsOnly } from './fields.ts'

export type RendererModule = NonNullable<ReturnType<typeof useRenderer>['renderer']>

/** The article as readers get it: the API's renderer, run in the browser as the text changes. */
export function Preview({
  fields,
  renderer,
  error,
}: {
  fields: Fields
  renderer?: RendererModule
  error?: unknown
}): VNode {
  const [out, setOut] = useState<string>()
  useEffect(() => {
    if (!renderer) return
    // At once for the first render, then once typing pauses: a long article takes a moment.
    const timer = setTimeout(() => setOut(renderer.renderHtml(fields.body)), out === undefined ? 0 : 150)
    return () => clearTimeout(timer)
  }, [renderer, fields.body])
  const image = httpsOnly(fields.imageUrl)
  return (
    <section class="preview" aria-label="Preview">
      <div class="preview-label muted">Preview: as readers get it (the Content API's HTML)</div>
      <article class="prose">
        {image ? <img class="feature" src={image} alt={fields.imageAlt} /> : null}
        <div class="prose-title">{fields.title || 'Untitled'}</div>
        {error ? (
          <ErrorNote error={error} />
        ) : out === undefined ? (
          <p class="muted" role="status">
            <span class="spinner" aria-hidden="true"></span>Loading the preview…
          </p>
        ) : (
          <div class="rendered" dangerouslySetInnerHTML={{ __html: out }}></div>
        )}
      </article>
    </section>
  )
}
