/**
 * The article editor: Markdown beside a live preview made by the Content API's own renderer
 * (renderer.ts), the article's settings (slug, excerpt, tags, feature image), an SEO panel, the
 * schedule picker in the workspace's time zone, and the revision history with restore.
 *
 * Drafts are saved on their own a moment after typing stops. Published and scheduled articles are
 * saved with Update only: a save changes what readers get at once. Publish and Schedule save
 * first. Before each save the article is read again: when its revision is no longer the one this
 * editor started from (another tab, another person), nothing is written and the editor asks
 * whose version to keep. The API has no If-Match on writes, so this narrows the window to the
 * moment between that read and the write; it does not close it.
 */
import type { VNode } from 'preact'
import { useEffect, useRef, useState } from 'preact/hooks'
import { ApiError } from '../api.ts'
import {
  type Article,
  type ArticlePatch,
  createPreviewLink,
  createTag,
  deleteArticle,
  getArticle,
  getRevision,
  publishArticle,
  type Revision,
  type RevisionSummary,
  restoreRevision,
  scheduleArticle,
  submitArticle,
  type Tag,
  unpublishArticle,
  unscheduleArticle,
  updateArticle,
  useArticle,
  useRevisions,
  useSite,
  useTags,
} from '../data/content.ts'
import { type Member, useMembers } from '../data/team.ts'
import { ago, when } from '../format.ts'
import { useRenderer } from '../renderer.ts'
import {
  Action,
  canPublish,
  confirmAction,
  ErrorNote,
  Loaded,
  leaveWithoutAsking,
  SecretOnce,
  useLeaveGuard,
  useSession,
} from '../ui.tsx'
import { fromZoned, toZoned, whenIn } from '../zone.ts'
import { Sources, StatusPill } from './content.tsx'
import { ReviewPanel } from './review-note.tsx'
import { Translations } from './translations.ts'

/** A tag as an article carries it (the picker offers these and the workspace's tags). */
type TagRef = Pick<Tag, 'id' | 'name' | 'slug'>

/** What the editor's fields hold: text as typed, tags as slugs. */
interface Fields {
  title: string
  body: string
  slug: string
  excerpt: string
  imageUrl: string
  imageAlt: string
  tags: string[]
  metaTitle: string
  metaDescription: string
  canonicalUrl: string
}

/** A revision's fields in the editor; tags deleted since (not in `known`, when known) are left out. */
function fieldsOfRevision(r: Revision, known?: string[]): Fields {
  return {
    title: r.title,
    body: r.body,
    slug: r.slug,
    excerpt: r.excerpt ?? '',
    imageUrl: r.feature_image?.url ?? '',
    imageAlt: r.feature_image?.alt ?? '',
    tags: known ? r.tags.filter((t) => known.includes(t)) : r.tags,
    metaTitle: r.meta_title ?? '',
    metaDescription: r.meta_description ?? '',
    canonicalUrl: r.canonical_url ?? '',
  }
}

/** How long typing must pause before a draft is saved. */
const AUTOSAVE_MS = 1200

const LEAVE_MESSAGE = 'This article has changes that are not saved yet. Leave and lose them?'

function fieldsOf(a: Article): Fields {
  return {
    title: a.title,
    body: a.body ?? '',
    slug: a.slug,
    excerpt: a.custom_excerpt ?? '',
    imageUrl: a.feature_image?.url ?? '',
    imageAlt: a.feature_image?.alt ?? '',
    tags: a.tags.map((t) => t.slug),
    metaTitle: a.meta_title ?? '',
    metaDescription: a.meta_description ?? '',
    canonicalUrl: a.canonical_url ?? '',
  }
}

/**
 * The update a save sends: only what differs from the saved article, compared as the API stores
 * it (trimmed, empty as null), so a trailing space is no unsaved change. A cleared title or slug
 * is not sent (both are required); the title field says so.
 */
function changes(f: Fields, a: Article): ArticlePatch {
  const patch: ArticlePatch = {}
  const orNull = (s: string) => s.trim() || null
  if (f.title.trim() && f.title.trim() !== a.title) patch.title = f.title.trim()
  if (f.body !== (a.body ?? '')) patch.body = f.body
  if (f.slug.trim() && f.slug.trim() !== a.slug) patch.slug = f.slug.trim()
  if (orNull(f.excerpt) !== a.custom_excerpt) patch.excerpt = orNull(f.excerpt)
  const image = f.imageUrl.trim() ? { url: f.imageUrl.trim(), alt: f.imageAlt.trim() } : null
  if (JSON.stringify(image) !== JSON.stringify(a.feature_image)) patch.feature_image = image
  if (f.tags.join(',') !== a.tags.map((t) => t.slug).join(',')) patch.tags = f.tags
  if (orNull(f.metaTitle) !== a.meta_title) patch.meta_title = orNull(f.metaTitle)
  if (orNull(f.metaDescription) !== a.meta_description) patch.meta_description = orNull(f.metaDescription)
  if (orNull(f.canonicalUrl) !== a.canonical_url) patch.canonical_url = orNull(f.canonicalUrl)
  return patch
}

const httpsOnly = (url: string) => (/^https:\/\/[^\s]+$/i.test(url.trim()) ? url.trim() : undefined)

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
  const [saved, setSaved] = useState(initial)
  const [fields, setFields] = useState(() => fieldsOf(initial))
  const [saving, setSaving] = useState(false)
  const [saveError, setSaveError] = useState<unknown>()
  const [conflict, setConflict] = useState<Article>()
  const [note, setNote] = useState<VNode>()
  const [previewLink, setPreviewLink] = useState<string>()
  const savedRef = useRef(saved)
  const fieldsRef = useRef(fields)
  savedRef.current = saved
  fieldsRef.current = fields
  const inflight = useRef<Promise<Article> | null>(null)
  const site = useSite(initial.site_id)
  const tags = useTags()
  const members = useMembers()
  const { renderer, error: rendererError } = useRenderer()

  const pending = changes(fields, saved)
  const dirty = Object.keys(pending).length > 0
  useLeaveGuard(dirty || saving ? LEAVE_MESSAGE : null)

  const set = (patch: Partial<Fields>) => setFields((f) => ({ ...f, ...patch }))
  const take = (next: Article) => {
    savedRef.current = next
    setSaved(next)
  }

  /** Saves what differs now (after any save under way); resolves to the saved article. */
  const saveNow = async (): Promise<Article> => {
    while (inflight.current) await inflight.current.catch(() => undefined)
    const patch = changes(fieldsRef.current, savedRef.current)
    if (!Object.keys(patch).length) return savedRef.current
    const run = (async () => {
      setSaving(true)
      setSaveError(undefined)
      try {
        const current = await getArticle(saved.id)
        if (current.revision_id !== savedRef.current.revision_id) {
          setConflict(current)
          throw new ApiError(
            409,
            'CONFLICT',
            'This article was saved elsewhere since it was opened here: nothing was saved.',
          )
        }
        const next = await updateArticle(saved.id, patch)
        take(next)
        return next
      } catch (e) {
        setSaveError(e)
        throw e
      } finally {
        setSaving(false)
      }
    })()
    inflight.current = run
    try {
      return await run
    } finally {
      inflight.current = null
    }
  }

  // Drafts save themselves once typing pauses; a failed save waits for the next change.
  useEffect(() => {
    if (saved.status !== 'draft' || !dirty || conflict) return
    const timer = setTimeout(() => saveNow().catch(() => undefined), AUTOSAVE_MS)
    return () => clearTimeout(timer)
  }, [fields, saved, conflict])

  /** A move of the article's lifecycle (publish, schedule, …), after saving what differs. */
  const transition = async (move: (id: string) => Promise<Article>) => {
    // The save's own error is shown once, above the editor; the button says why it stopped.
    await saveNow().catch(() => {
      throw new ApiError(0, 'CLIENT', 'Nothing was changed: the edits could not be saved first (see above)')
    })
    take(await move(saved.id))
  }
  const publish = async () => {
    await transition(publishArticle)
    setNote(
      <p class="note ok" role="status">
        Published. The <code>content.published</code> event goes to your{' '}
        <a href="#/webhooks">webhook subscriptions</a>.
      </p>,
    )
  }

  const state = conflict
    ? { text: 'Not saved: changed elsewhere', tone: 'bad' }
    : saving
      ? { text: 'Saving…', tone: '' }
      : saveError
        ? { text: 'Not saved', tone: 'bad' }
        : dirty
          ? { text: 'Unsaved changes', tone: 'warn' }
          : { text: 'Saved', tone: 'ok' }
  const live = saved.status !== 'draft'
  const siteName = site.data?.name ?? 'its site'

  // A contributor writes and submits its own drafts; editors (member and up) publish and delete.
  const editor = canPublish(session)
  const mine = saved.author?.id === session.userId
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
    <>
      <p class="crumbs">
        <a href="#/articles">← Articles</a> · <a href={`#/sites/${saved.site_id}`}>{siteName}</a>
      </p>
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
      {note}
      <ReviewPanel article={saved} onChange={take} />
      {previewLink ? (
        <SecretOnce
          value={previewLink}
          title="Preview link"
          notice="Anyone with this link sees the article as it is saved now, without an account, for 7 days. It is shown once; revoke it from the API (DELETE …/previews/{id})."
          onDone={() => setPreviewLink(undefined)}
        />
      ) : null}
      {saveError && !conflict ? <ErrorNote error={saveError} /> : null}
      {conflict ? (
        <div class="error" role="alert">
          <strong>
            This article was saved elsewhere (another tab or another person) since you opened it.
          </strong>
          Your changes here are not saved. Keep yours (they replace the other version) or load the other
          version (yours are dropped).
          <div class="row wrap">
            <button
              type="button"
              onClick={() => {
                take(conflict)
                setConflict(undefined)
                setSaveError(undefined)
              }}
            >
              Keep mine
            </button>
            <button
              type="button"
              onClick={() => {
                take(conflict)
                setFields(fieldsOf(conflict))
                setConflict(undefined)
                setSaveError(undefined)
              }}
            >
              Load the other version
            </button>
          </div>
        </div>
      ) : null}
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

type RendererModule = NonNullable<ReturnType<typeof useRenderer>['renderer']>

/** The article as readers get it: the API's renderer, run in the browser as the text changes. */
function Preview({
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

/** A text field with its character count against the API's bound, and a softer hint where one helps. */
function Counted({
  label,
  value,
  max,
  soft,
  hint,
  multiline,
  placeholder,
  onInput,
}: {
  label: string
  value: string
  max: number
  soft?: number
  hint?: string
  multiline?: boolean
  placeholder?: string
  onInput: (v: string) => void
}): VNode {
  const n = value.trim().length
  const tone = n > max ? 'bad' : soft && n > soft ? 'warn' : ''
  const input = (e: Event) => onInput((e.target as HTMLInputElement).value)
  return (
    <label class="field">
      <span>{label}</span>
      {multiline ? (
        <textarea
          rows={3}
          aria-label={label}
          maxlength={max}
          value={value}
          placeholder={placeholder}
          onInput={input}
        ></textarea>
      ) : (
        <input aria-label={label} maxlength={max} value={value} placeholder={placeholder} onInput={input} />
      )}
      <small>
        <span class={`count ${tone}`} data-count={label}>
          {n} / {max}
        </span>
        {soft ? ` · search results show about ${soft}` : ''}
        {hint ? ` · ${hint}` : ''}
      </small>
    </label>
  )
}

function Settings({
  fields,
  set,
  saved,
  tags,
  onTagCreated,
  derivedExcerpt,
}: {
  fields: Fields
  set: (p: Partial<Fields>) => void
  saved: Article
  tags: Tag[]
  onTagCreated: () => void
  derivedExcerpt: string
}): VNode {
  const image = httpsOnly(fields.imageUrl)
  const [broken, setBroken] = useState(false)
  useEffect(() => setBroken(false), [image])
  return (
    <section class="card" aria-label="Article settings">
      <h2>Article settings</h2>
      <label class="field">
        <span>Slug</span>
        <input
          aria-label="Slug"
          class="mono"
          maxlength={120}
          value={fields.slug}
          placeholder={saved.slug}
          onInput={(e: Event) => set({ slug: (e.target as HTMLInputElement).value })}
        />
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

/** The article's tags: picked from the workspace's tags by name, or made on the spot. */
function TagPicker({
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

function Seo({
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
        <strong class="serp-title">{title.length > 60 ? `${title.slice(0, 59)}…` : title}</strong>
        <p>{description.length > 155 ? `${description.slice(0, 154)}…` : description}</p>
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

function Schedule({
  article: a,
  zone,
  schedule,
  cancel,
  setUnpublish,
}: {
  article: Article
  zone: string
  schedule: (iso: string, unpublishAt?: string) => Promise<void>
  cancel: () => Promise<void>
  setUnpublish: (iso: string | null) => Promise<void>
}): VNode {
  const suggested = () => {
    // The next full hour at least an hour away: a time in the past is refused.
    const d = new Date(Date.now() + 2 * 3_600_000)
    d.setMinutes(0, 0, 0)
    return toZoned(d, zone)
  }
  const [local, setLocal] = useState(() => (a.publish_at ? toZoned(a.publish_at, zone) : suggested()))
  const at = fromZoned(local, zone)
  // Optional: when the article comes down again (unpublish_at); empty for never.
  const [untilLocal, setUntilLocal] = useState(() => (a.unpublish_at ? toZoned(a.unpublish_at, zone) : ''))
  const until = untilLocal ? fromZoned(untilLocal, zone) : null
  const untilField = (
    <label class="field">
      <span>Take down at ({zone}, optional)</span>
      <input
        type="datetime-local"
        aria-label="Take down at"
        value={untilLocal}
        min={toZoned(new Date(), zone)}
        onInput={(e: Event) => setUntilLocal((e.target as HTMLInputElement).value)}
      />
      <small>Back to draft within a minute of that time; empty: stays up.</small>
    </label>
  )
  if (a.status === 'published')
    return (
      <section class="card" aria-label="Publishing">
        <h2>Publishing</h2>
        <p class="muted">
          Published {a.published_at ? whenIn(a.published_at, zone) : ''} ({zone}). To schedule it again,
          unpublish it first.
        </p>
        {untilField}
        <div class="row wrap">
          <Action run={() => setUnpublish(until ? until.toISOString() : null)}>Save the end time</Action>
        </div>
      </section>
    )
  return (
    <section class="card" aria-label="Publishing">
      <h2>Publishing</h2>
      <label class="field">
        <span>Publish at ({zone})</span>
        <input
          type="datetime-local"
          aria-label="Publish at"
          value={local}
          min={toZoned(new Date(), zone)}
          onInput={(e: Event) => setLocal((e.target as HTMLInputElement).value)}
        />
        <small>
          In the workspace's time zone
          {at ? (
            <>
              , that is{' '}
              <span data-iso={at.toISOString().replace('.000Z', 'Z')}>
                {at.toISOString().slice(0, 16).replace('T', ' ')} UTC
              </span>
            </>
          ) : (
            ''
          )}
          . It goes live within a minute of that time.
        </small>
      </label>
      {untilField}
      <div class="row wrap">
        <Action
          kind={a.status === 'draft' ? undefined : 'primary'}
          run={async () => {
            if (!at)
              throw new ApiError(400, 'VALIDATION_ERROR', 'Choose a date and time', [
                { field: 'publish_at', message: 'choose a date and time' },
              ])
            await schedule(at.toISOString(), until?.toISOString())
          }}
        >
          {a.status === 'scheduled' ? 'Reschedule' : 'Schedule'}
        </Action>
        {a.status === 'scheduled' ? <Action run={cancel}>Cancel the schedule</Action> : null}
      </div>
    </section>
  )
}

function Revisions({
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
