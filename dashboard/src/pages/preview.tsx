/**
 * A preview link (#/preview/<token>): the article as readers will see it, for anyone holding the
 * link, signed in or not. Read with the link's token (GET /v1/content/previews/{token}), which
 * answers 404 alike for an unknown, revoked or expired link.
 */
import type { VNode } from 'preact'
import { usePreview } from '../data/content.ts'
import { when } from '../format.ts'
import { Loaded } from '../ui.tsx'

export function PreviewPage({ token }: { token: string }): VNode {
  const article = usePreview(token)
  return (
    <main class="narrow">
      <Loaded state={article}>
        {(a) => (
          <article aria-label="Preview">
            <p class="muted" role="note">
              Preview of a {a.status === 'published' ? 'published article’s unpublished edits' : a.status} ·
              the link works until {when(a.preview.expires_at)}
            </p>
            <h1>{a.title}</h1>
            {a.author ? <p class="muted">{a.author.name}</p> : null}
            {a.feature_image ? (
              <img src={a.feature_image.url} alt={a.feature_image.alt} style="max-width:100%" />
            ) : null}
            <div class="prose">
              <div class="rendered" dangerouslySetInnerHTML={{ __html: a.html ?? '' }}></div>
            </div>
          </article>
        )}
      </Loaded>
    </main>
  )
}
