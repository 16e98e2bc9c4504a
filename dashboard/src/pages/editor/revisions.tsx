/** The revision history: each save's revision, viewed rendered, and restored. */
import type { VNode } from 'preact'
import { useState } from 'preact/hooks'
import {
  type Article,
  getRevision,
  type Revision,
  type RevisionSummary,
  useRevisions,
} from '../../data/content.ts'
import type { Member } from '../../data/team.ts'
import { ago, when } from '../../format.ts'
import { Action, confirmAction, ErrorNote, Loaded } from '../../ui.tsx'
import type { RendererModule } from './preview.tsx'

export function Revisions({
  article,
  members,
  dirty,
  renderer,
  restore,
}: {
  article: Article
  members: Member[]
  dirty: boolean
  renderer?: RendererModule
  restore: (id: string) => Promise<void>
}): VNode {
  // Read again after each save (a new revision_id): the list gains the revision it made.
  const list = useRevisions(article.id, article.revision_id)
  const [open, setOpen] = useState<{ id: string; revision?: Revision; error?: unknown }>()
  const who = (id: string | null) =>
    (id && members.find((m) => m.user_id === id)?.email) ?? (id ? 'a former member' : 'unknown')
  const view = async (id: string) => {
    if (open?.id === id) return setOpen(undefined)
    setOpen({ id })
    try {
      setOpen({
        id,
        revision: await getRevision(article.id, id),
      })
    } catch (error) {
      setOpen({ id, error })
    }
  }
  const restoreOne = async (r: RevisionSummary) => {
    const warn = dirty ? ' Your unsaved changes here are dropped.' : ''
    const what =
      article.status === 'draft'
        ? "Its fields become the article's again, as a new revision; nothing is lost."
        : 'Its fields come into the editor as unsaved changes; readers keep the live version until you press Update.'
    if (!(await confirmAction(`Restore revision ${r.number} (“${r.title}”)? ${what}${warn}`, 'Restore')))
      return
    await restore(r.id)
    setOpen(undefined)
  }
  return (
    <section class="card revisions" aria-label="Revisions">
      <h2>Revisions</h2>
      <p class="muted">Every save keeps one; the newest 50 are kept.</p>
      <Loaded state={list}>
        {(page) => (
          <ol class="revision-list">
            {page.data.map((r) => (
              <li data-revision={r.number}>
                <div class="row">
                  <strong>#{r.number}</strong> <span>{r.reason}</span>
                  <span class="grow"></span>
                  <button
                    type="button"
                    class="link"
                    aria-expanded={open?.id === r.id}
                    onClick={() => view(r.id)}
                  >
                    {open?.id === r.id ? 'Hide' : 'View'}
                  </button>
                  {r.id === article.revision_id ? null : (
                    <Action kind="link" label={`Restore revision ${r.number}`} run={() => restoreOne(r)}>
                      Restore
                    </Action>
                  )}
                </div>
                {r.id === article.revision_id ? <span class="pill">current</span> : null}
                {r.id === article.published_revision_id ? <span class="pill ok">went live</span> : null}
                <small class="muted">
                  {who(r.created_by)} · <span title={when(r.created_at)}>{ago(r.created_at)}</span> · “
                  {r.title}”
                </small>
                {open?.id === r.id ? (
                  open.error ? (
                    <ErrorNote error={open.error} />
                  ) : open.revision ? (
                    <div class="revision-view" aria-label={`Revision ${r.number}`} role="region">
                      <p>
                        <strong>{open.revision.title}</strong>{' '}
                        <small class="mono muted">/{open.revision.slug}</small>
                      </p>
                      {open.revision.tags.length ? (
                        <p class="muted">Tags: {open.revision.tags.join(', ')}</p>
                      ) : null}
                      {!open.revision.body ? (
                        <p class="muted">(The body was empty.)</p>
                      ) : renderer ? (
                        <div class="prose">
                          <div
                            class="rendered"
                            dangerouslySetInnerHTML={{ __html: renderer.renderHtml(open.revision.body) }}
                          ></div>
                        </div>
                      ) : (
                        <pre class="mono">{open.revision.body}</pre>
                      )}
                    </div>
                  ) : (
                    <p class="muted">
                      <span class="spinner" aria-hidden="true"></span>Loading…
                    </p>
                  )
                ) : null}
              </li>
            ))}
          </ol>
        )}
      </Loaded>
    </section>
  )
}
