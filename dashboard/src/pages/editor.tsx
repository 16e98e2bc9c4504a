/**
 * The article editor: Markdown beside a live preview made by the Content API's own renderer
 * (editor/preview.tsx), the article's settings (slug, excerpt, tags, feature image), an SEO panel,
 * the schedule picker in the workspace's time zone, the revision history with restore and the
 * translations; each in editor/, this file lays them out.
 *
 * Drafts are saved on their own a moment after typing stops. Published and scheduled articles are
 * saved with Update only: a save changes what readers get at once. Publish and Schedule save
 * first. A save made elsewhere meanwhile is caught before writing (editor/use-save.ts).
 */
import type { VNode } from 'preact'
import { useState } from 'preact/hooks'
import {
  type Article,
  getRevision,
  restoreRevision,
  scheduleArticle,
  unscheduleArticle,
  updateArticle,
  useArticle,
  useSite,
  useTags,
} from '../data/content.ts'
import { useMembers } from '../data/team.ts'
import { useRenderer } from '../renderer.ts'
import { canPublish, ErrorNote, Loaded, SecretOnce, useSession } from '../ui.tsx'
import { Sources } from './content.tsx'
import { ConflictNote, EditorBar } from './editor/bar.tsx'
import { fieldsOf, fieldsOfRevision } from './editor/fields.ts'
import { Preview } from './editor/preview.tsx'
import { Revisions } from './editor/revisions.tsx'
import { Schedule } from './editor/schedule.tsx'
import { Seo } from './editor/seo.tsx'
import { Settings } from './editor/settings.tsx'
import { Translations } from './editor/translations.tsx'
import { useArticleSave } from './editor/use-save.ts'
import { ReviewPanel } from './review-note.tsx'

export function ArticleEditorPage({ id }: { id: string }): VNode {
  const article = useArticle(id)
  return (
    <section class="editor-page">
      <Loaded state={article}>{(a) => <Editor initial={a} />}</Loaded>
    </section>
  )
}

function Editor({ initial }: { initial: Article }): VNode {
  const session = useSession()
  const zone = session.timeZone
  const save = useArticleSave(initial)
  const { saved, take, fields, set, setFields, saveError, setSaveError, conflict, dirty, transition } = save
  const [note, setNote] = useState<VNode>()
  const [previewLink, setPreviewLink] = useState<string>()
  const site = useSite(initial.site_id)
  const tags = useTags()
  const members = useMembers()
  const { renderer, error: rendererError } = useRenderer()
  const live = saved.status !== 'draft'
  const siteName = site.data?.name ?? 'its site'
  const editor = canPublish(session)
  return (
    <>
      <p class="crumbs">
        <a href="#/articles">← Articles</a> · <a href={`#/sites/${saved.site_id}`}>{siteName}</a>
      </p>
      <EditorBar save={save} onNote={setNote} onPreviewLink={setPreviewLink} />
      {note}
      <ReviewPanel article={saved} onChange={take} />
      {previewLink ? (
        <SecretOnce
          value={previewLink}
          title="Preview link"
          notice="Anyone with this link sees the article as it is saved now, without an account, for 7 days. It is shown once; a developer can revoke it through the API."
          onDone={() => setPreviewLink(undefined)}
        />
      ) : null}
      {saveError && !conflict ? <ErrorNote error={saveError} /> : null}
      {conflict ? <ConflictNote resolve={save.resolve} /> : null}
      <div class="editor-split">
        <div class="compose">
          <label class="field">
            <span>Title</span>
            <input
              class="title-input"
              aria-label="Title"
              required
              maxlength={500}
              value={fields.title}
              placeholder="Article title"
              onInput={(e: Event) => set({ title: (e.target as HTMLInputElement).value })}
            />
            {fields.title.trim() ? null : (
              <small class="bad-text">A title is needed: the saved one stays until you give one.</small>
            )}
          </label>
          <label class="field grow-field">
            <span>Body (Markdown)</span>
            <textarea
              class="markdown"
              aria-label="Body (Markdown)"
              maxlength={200000}
              value={fields.body}
              spellcheck
              onInput={(e: Event) => set({ body: (e.target as HTMLTextAreaElement).value })}
            ></textarea>
            <small>
              Markdown: **bold**, _italic_, # headings, - lists, [links](https://…).{' '}
              {fields.body.length.toLocaleString()} / 200,000 characters.
            </small>
          </label>
        </div>
        <Preview fields={fields} renderer={renderer} error={rendererError} />
      </div>
      <div class="editor-panels">
        <Settings
          fields={fields}
          set={set}
          saved={saved}
          tags={tags.data?.data ?? []}
          onTagCreated={() => tags.reload()}
          derivedExcerpt={renderer ? renderer.excerptOf(fields.body) : saved.excerpt}
          error={saveError}
        />
        <Seo
          fields={fields}
          set={set}
          domain={site.data?.domain ?? null}
          excerpt={fields.excerpt.trim() || (renderer ? renderer.excerptOf(fields.body) : saved.excerpt)}
        />
        <div class="panel-stack">
          {editor ? (
            <Schedule
              article={saved}
              zone={zone}
              schedule={async (iso: string, until?: string) => {
                await transition((id) =>
                  scheduleArticle(id, { publish_at: iso, ...(until && { unpublish_at: until }) }),
                )
                setNote(undefined)
              }}
              cancel={() => transition(unscheduleArticle)}
              setUnpublish={async (until: string | null) =>
                take(await updateArticle(saved.id, { unpublish_at: until }))
              }
            />
          ) : null}
          <Revisions
            article={saved}
            members={members.data?.data ?? []}
            dirty={dirty}
            renderer={renderer}
            restore={async (revisionId: string) => {
              if (live) {
                // A live article's restore is an edit like any other: it waits in the editor for Update,
                // so readers keep the live version (slug, tags, SEO, image) until then.
                const revision = await getRevision(saved.id, revisionId)
                const known = tags.data?.data.map((t) => t.slug)
                setFields(fieldsOfRevision(revision, known))
                setSaveError(undefined)
                setNote(
                  <p class="note" role="status">
                    Revision {revision.number} is in the editor, not yet live: readers keep the {saved.status}{' '}
                    version until you press Update.
                  </p>,
                )
                return
              }
              const restored = await restoreRevision(saved.id, revisionId)
              take(restored)
              setFields(fieldsOf(restored))
              setSaveError(undefined)
            }}
          />
        </div>
        <Translations article={saved} locales={site.data?.locales} />
      </div>
      <Sources id={saved.id} />
      <p>
        <a href={`#/story/${saved.id}`}>Story: where this article came from and what happened to it</a>
      </p>
    </>
  )
}
