/**
 * The editor's review loop, kept apart from the editor itself (one line hooks it in): the note an
 * editor returned the draft with, as its writer reads it; "Return with a note" for an editor on a
 * draft waiting for review; and, for a contributor on an article that is not its own draft, a plain
 * read-only view (the API refuses the writes anyway; this says so before they are tried).
 */
import type { VNode } from 'preact'
import { useEffect } from 'preact/hooks'
import { type Article, returnArticle } from '../data/content.ts'
import { ago, when } from '../format.ts'
import { canPublish, Field, Form, useSession } from '../ui.tsx'

/** Tells the menu's Review count to read again. */
const reviewChanged = () => window.dispatchEvent(new Event('review-changed'))

export function ReviewPanel({
  article,
  onChange,
}: {
  article: Article
  onChange: (next: Article) => void
}): VNode | null {
  const session = useSession()
  const editor = canPublish(session)
  const mine = article.author?.id === session.userId
  const readOnly = !editor && !(mine && article.status === 'draft')
  useReadOnlyFields(readOnly)
  const returned = article.review_return
  const waiting = article.status === 'draft' && Boolean(article.review_requested_at)
  return (
    <>
      {readOnly ? (
        <p class="note" role="note" data-read-only>
          <strong>Read-only.</strong>{' '}
          {article.status === 'draft'
            ? `This draft is ${article.author?.name ? `${article.author.name}’s` : 'another writer’s'}: you can read it here, and its writer and the editors change it.`
            : `This article is ${article.status}: the editors change it now.`}{' '}
          Your own drafts are under <a href="#/drafts">My drafts</a>.
        </p>
      ) : null}
      {returned ? (
        <div class="note review-note" role="note" aria-label="Returned with a note">
          <strong>Returned with a note</strong>{' '}
          <small class="muted" title={when(returned.returned_at)}>
            {ago(returned.returned_at)}
          </small>
          <blockquote>{returned.note}</blockquote>
          <small class="muted">
            {mine
              ? 'Change the draft, then submit it for review again: that clears this note.'
              : 'It waits for its writer to submit it again.'}
          </small>
        </div>
      ) : null}
      {editor && waiting ? (
        <details class="card">
          <summary>Return to the writer with a note</summary>
          <Form
            label="Return to the writer"
            submitLabel="Return to the writer"
            submit={async (d: FormData) => {
              onChange(await returnArticle(article.id, String(d.get('note'))))
              reviewChanged()
            }}
          >
            <Field
              label="Note for the writer"
              hint="What to change before it can go out (up to 2,000 characters)."
            >
              <textarea name="note" required maxlength={2000} rows={3}></textarea>
            </Field>
          </Form>
        </details>
      ) : null}
    </>
  )
}

/**
 * Makes the editor's fields read-only while `on` (inputs and text areas read-only, the settings' and
 * SEO panels' choices and buttons disabled; revisions stay readable), again whenever the editor redraws a part of itself, so a contributor
 * reading another's draft types nothing the API would refuse.
 */
function useReadOnlyFields(on: boolean): void {
  useEffect(() => {
    if (!on) return
    const root = document.getElementById('main')
    if (!root) return
    const apply = () => {
      for (const el of root.querySelectorAll<HTMLElement>(
        '.editor-split :is(input, textarea), .editor-panels > section :is(input, textarea, select, button)',
      )) {
        if (el instanceof HTMLInputElement && el.type !== 'checkbox' && el.type !== 'radio')
          el.readOnly = true
        else if (el instanceof HTMLTextAreaElement) el.readOnly = true
        else el.setAttribute('disabled', '')
      }
    }
    apply()
    const watch = new MutationObserver(apply)
    watch.observe(root, { childList: true, subtree: true })
    return () => watch.disconnect()
  }, [on])
}
