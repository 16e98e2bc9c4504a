/**
 * The editor's bar: the title, the article's state and the save's, and the lifecycle's buttons
 * (Update, Publish, Submit for review, Preview link, Delete) as the caller's role allows; below it,
 * where the article stands, and the choice to make when it was saved elsewhere meanwhile.
 */
import type { VNode } from 'preact'
import {
  type Article,
  createPreviewLink,
  deleteArticle,
  publishArticle,
  submitArticle,
  unpublishArticle,
} from '../../data/content.ts'
import { ago, when } from '../../format.ts'
import { Action, canPublish, leaveWithoutAsking, useSession } from '../../ui.tsx'
import { whenIn } from '../../zone.ts'
import { StatusPill } from '../content.tsx'
import type { ArticleSave } from './use-save.ts'

export function EditorBar({
  save,
  onNote,
  onPreviewLink,
}: {
  save: ArticleSave
  /** A note shown under the bar (after publishing), or none. */
  onNote: (note?: VNode) => void
  onPreviewLink: (link: string) => void
}): VNode {
  const session = useSession()
  const zone = session.timeZone
  const { saved, saving, dirty, state, saveNow, transition } = save
  const live = saved.status !== 'draft'
  // A contributor writes and submits its own drafts; editors (member and up) publish and delete.
  const editor = canPublish(session)
  const mine = saved.author?.id === session.userId
  const setNote = onNote
  const setPreviewLink = onPreviewLink
  const publish = async () => {
    await transition(publishArticle)
    setNote(
      <p class="note ok" role="status">
        Published. The <code>content.published</code> event goes to your{' '}
        <a href="#/webhooks">webhook subscriptions</a>.
      </p>,
    )
  }
  const buttons = {
    publish: (
      <>
        {saved.status === 'draft' ? (
          <Action
            kind="primary"
            confirm={`Publish “${saved.title}” now? Readers see it once your site picks up the change.`}
            confirmLabel="Publish"
            run={publish}
          >
            Publish
          </Action>
        ) : null}
        {saved.status === 'scheduled' ? (
          <Action
            confirm={`Publish “${saved.title}” now, before its scheduled time?`}
            confirmLabel="Publish"
            run={publish}
          >
            Publish now
          </Action>
        ) : null}
        {saved.status === 'published' ? (
          <Action
            confirm={`Take “${saved.title}” back to draft? Readers no longer see it once your site picks up the change.`}
            confirmLabel="Unpublish"
            run={() => transition(unpublishArticle)}
          >
            Unpublish
          </Action>
        ) : null}
      </>
    ),
    remove: (
      <Action
        kind="danger"
        confirm={`Delete the article “${saved.title}” and its revisions? It cannot be undone.`}
        confirmLabel="Delete"
        run={async () => {
          await deleteArticle(saved.id)
          leaveWithoutAsking('#/articles')
        }}
      >
        Delete
      </Action>
    ),
  }
  return (
    <div class="editor-bar">
      <h1 class="editor-title">{saved.title}</h1>
      <div class="row wrap">
        <StatusPill status={saved.status} />
        {saved.review_requested_at ? (
          <span class="pill pending" title={when(saved.review_requested_at)}>
            submitted for review
          </span>
        ) : null}
        <span
          class={`save-state ${state.tone}`}
          role="status"
          aria-live="polite"
          data-state={state.text}
          title={`Last saved ${when(saved.updated_at)}`}
        >
          {saving ? <span class="spinner" aria-hidden="true"></span> : null}
          {state.text}
        </span>
        <span class="grow"></span>
        {live && dirty ? (
          <Action
            kind="primary"
            run={() =>
              saveNow().then(
                () => setNote(undefined),
                () => undefined,
              )
            }
          >
            Update
          </Action>
        ) : null}
        {editor ? buttons.publish : null}
        {saved.status === 'draft' && !saved.review_requested_at && (editor || mine) ? (
          <Action run={() => transition(submitArticle)}>Submit for review</Action>
        ) : null}
        {editor ? (
          <Action
            run={async () => {
              // The link shows what is saved: unsaved edits are saved first.
              const article = dirty ? await saveNow() : saved
              const link = await createPreviewLink(article.id)
              setPreviewLink(`${location.origin}${location.pathname}#/preview/${link.token}`)
            }}
          >
            Preview link
          </Action>
        ) : null}
        {editor || (mine && saved.status === 'draft') ? buttons.remove : null}
      </div>
      <StateLine article={saved} zone={zone} />
    </div>
  )
}

/** Where the article stands: when it went or goes live, and whether the live text was edited. */
function StateLine({ article: a, zone }: { article: Article; zone: string }): VNode {
  const author = a.author ? <> · by {a.author.name}</> : null
  if (a.status === 'scheduled' && a.publish_at)
    return (
      <p class="muted">
        Scheduled for <strong>{whenIn(a.publish_at, zone)}</strong> ({zone}){author}
      </p>
    )
  if (a.status === 'published')
    return (
      <p class="muted">
        Published <span title={when(a.published_at)}>{ago(a.published_at)}</span>
        {author}
        {a.edited_since_published ? (
          <>
            {' '}
            · <strong>edited since it was published</strong>: readers get the saved version, not the one
            published
          </>
        ) : (
          ''
        )}
      </p>
    )
  return (
    <p class="muted">
      Draft, saved on its own as you type{author} · created {ago(a.created_at)}
    </p>
  )
}

/** The choice to make when the article was saved elsewhere since it was opened here. */
export function ConflictNote({ resolve }: { resolve: ArticleSave['resolve'] }): VNode {
  return (
    <div class="error" role="alert">
      <strong>This article was saved elsewhere (another tab or another person) since you opened it.</strong>
      Your changes here are not saved. Keep yours (they replace the other version) or load the other version
      (yours are dropped).
      <div class="row wrap">
        <button type="button" onClick={() => resolve('mine')}>
          Keep mine
        </button>
        <button type="button" onClick={() => resolve('theirs')}>
          Load the other version
        </button>
      </div>
    </div>
  )
}
