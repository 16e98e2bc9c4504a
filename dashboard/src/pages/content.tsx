/**
 * Content: the tenant's sites and each site's articles (the editor is pages/editor.ts, the list
 * across sites pages/articles.ts), and the source items a generated draft was written from.
 * The Content API lets every member write content (README's route table: "any member"), so these
 * pages offer their forms to every role.
 */
import type { VNode } from 'preact'
import { useState } from 'preact/hooks'
import { config } from '../api.ts'
import {
  type ArticleStatus,
  type ContentItem,
  createArticle,
  createSite,
  deleteSite,
  getSite,
  listContent,
  listSites,
  type Site,
  type SiteDetail,
  siteCounts,
  updateSite,
  useArticleSources,
  useSite,
} from '../data/content.ts'
import { useLoad } from '../data/load.ts'
import { ago, hostOf, num, safeHref, when } from '../format.ts'
import { Action, confirmAction, ErrorNote, Field, Form, Loaded, Loading } from '../ui.tsx'

const plural = (n: number, one: string, many = `${one}s`) => `${num(n)} ${n === 1 ? one : many}`

/** What deleting a site takes with it, read from the API just before asking. */
function deleteSiteWarning(site: SiteDetail): string {
  const c = siteCounts(site)
  const parts = [
    `${plural(c.articles, 'article')}${c.articles ? ` (${num(c.published)} published, ${num(c.drafts)} drafts)` : ''}`,
    `${plural(c.sources, 'source')}${c.sources ? ` with the ${plural(c.source_items, 'item')} they collected` : ''}`,
    plural(c.affiliate_destinations, 'affiliate destination'),
  ]
  return `Delete the site “${site.name}”? This also deletes ${parts.join(', ')}. It cannot be undone.`
}

/** A site's name and domain: a new site, or one of the list (its rows carry both). */
function SiteForm({
  site,
  done,
}: {
  site?: Pick<ContentItem, 'id' | 'name' | 'domain'>
  done: (s: Site) => void
}): VNode {
  // Fields in state, so a re-render (the list below loading) never drops what is being typed.
  const [name, setName] = useState(site?.name ?? '')
  const [domain, setDomain] = useState(site?.domain ?? '')
  return (
    <Form
      label={site ? `Edit ${site.name}` : 'Create a site'}
      submitLabel={site ? 'Save' : 'Create site'}
      submit={async () => {
        const body = { name: name.trim(), domain: hostOf(domain) || null }
        const saved = site ? await updateSite(site.id, body) : await createSite(body)
        if (!site) {
          setName('')
          setDomain('')
        }
        done(saved)
      }}
    >
      <div class="grid2">
        <Field label="Name" hint="1 to 200 characters">
          <input
            name="name"
            required
            maxlength={200}
            value={name}
            placeholder="Tech blog"
            onInput={(e: Event) => setName((e.target as HTMLInputElement).value)}
          />
        </Field>
        <Field
          label="Domain (optional)"
          hint="Where the site is published: its host, e.g. blog.example.com; a pasted address is cut to its host"
        >
          <input
            name="domain"
            maxlength={2048}
            value={domain}
            placeholder="blog.example.com"
            onInput={(e: Event) => setDomain((e.target as HTMLInputElement).value)}
            onBlur={() => setDomain(hostOf(domain))}
          />
        </Field>
      </div>
    </Form>
  )
}

export function SitesPage(): VNode {
  const [q, setQ] = useState('')
  const sites = useLoad(() => listSites(q || undefined), [q])
  const [editing, setEditing] = useState<string>()
  const remove = async (s: ContentItem) => {
    const detail = await getSite(s.id)
    if (!(await confirmAction(deleteSiteWarning(detail), 'Delete site'))) return
    await deleteSite(s.id)
    sites.reload()
  }
  const empty = sites.data && !sites.data.data.length && !q
  return (
    <section>
      <h1>Sites</h1>
      <p class="muted">Each site holds articles; sources and affiliate destinations feed one site.</p>
      <details class="card" open={Boolean(empty)}>
        <summary>Create a site</summary>
        <SiteForm
          done={(s) => {
            location.hash = `#/sites/${s.id}`
          }}
        />
      </details>
      <div class="row wrap">
        <Search value={q} onSearch={setQ} label="Search sites" />
        <span class="grow"></span>
      </div>
      <Loaded state={sites}>
        {(page) =>
          page.data.length ? (
            <table>
              <caption class="sr">Sites</caption>
              <thead>
                <tr>
                  <th>Site</th>
                  <th>Created</th>
                  <th>
                    <span class="sr">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {page.data.map((s) => (
                  <>
                    <tr data-site={s.id}>
                      <td data-label="Site">
                        <a href={`#/sites/${s.id}`}>
                          <strong>{s.name}</strong>
                        </a>
                        {s.domain ? (
                          <>
                            <br />
                            <small class="muted">{s.domain}</small>
                          </>
                        ) : null}
                      </td>
                      <td data-label="Created" title={when(s.created_at)}>
                        {ago(s.created_at)}
                      </td>
                      <td>
                        <a class="button" href={`#/sites/${s.id}`}>
                          Articles
                        </a>
                        <button
                          type="button"
                          onClick={() => setEditing(editing === s.id ? undefined : s.id)}
                          aria-expanded={editing === s.id}
                        >
                          Edit
                        </button>
                        <Action kind="danger" label={`Delete ${s.name}`} run={() => remove(s)}>
                          Delete
                        </Action>
                      </td>
                    </tr>
                    {editing === s.id ? (
                      <tr class="sub">
                        <td colspan={3}>
                          <SiteForm
                            site={s}
                            done={() => {
                              setEditing(undefined)
                              sites.reload()
                            }}
                          />
                        </td>
                      </tr>
                    ) : null}
                  </>
                ))}
              </tbody>
            </table>
          ) : q ? (
            <p class="muted">No site matches “{q}”.</p>
          ) : (
            <p class="note">
              No sites yet. Create your first site above: articles, sources and affiliate destinations all
              belong to one.
            </p>
          )
        }
      </Loaded>
    </section>
  )
}

/** A search box that searches on submit (Enter), not on every keystroke: each search is a metered call. */
export function Search({
  value,
  onSearch,
  label,
}: {
  value: string
  onSearch: (q: string) => void
  label: string
}): VNode {
  // In state, so a re-render of the page (a list loading) never drops what is being typed.
  const [text, setText] = useState(value)
  return (
    <form
      class="row search"
      role="search"
      onSubmit={(e: Event) => {
        e.preventDefault()
        onSearch(text.trim())
      }}
    >
      <input
        type="search"
        name="q"
        value={text}
        onInput={(e: Event) => setText((e.target as HTMLInputElement).value)}
        aria-label={label}
        placeholder="Search…"
        maxlength={200}
      />
      <button type="submit">Search</button>
    </form>
  )
}

/** An article's status; list rows (GET /v1/content) carry it as a plain string. */
export function StatusPill({ status }: { status: ArticleStatus | string | null | undefined }): VNode {
  return (
    <span class={`pill ${status === 'published' ? 'ok' : status === 'scheduled' ? 'pending' : ''}`}>
      {status}
    </span>
  )
}

/** A draft a contributor submitted: marked wherever articles are listed. */
export function ReviewPill({ at }: { at: string | null | undefined }): VNode | null {
  return at ? (
    <>
      {' '}
      <span class="pill pending" title={when(at)}>
        submitted for review
      </span>
    </>
  ) : null
}

/**
 * A site's settings for readers: public feeds and sitemap, where its articles live (the links of
 * feeds, the sitemap and structured data) and the schema.org type of its structured data.
 */
function ReaderSettings({ site, saved }: { site: SiteDetail; saved: () => void }): VNode {
  const [feeds, setFeeds] = useState(site.public_feeds ?? false)
  const [pattern, setPattern] = useState(site.article_url_pattern ?? '')
  const [type, setType] = useState(site.article_schema_type ?? 'Article')
  const base = `${config?.supabaseUrl ?? location.origin}/functions/v1/content/feeds/${site.id}`
  return (
    <details class="card">
      <summary>Readers: feeds, sitemap, links{site.public_feeds ? ' (feeds public)' : ''}</summary>
      <Form
        label="Reader settings"
        submitLabel="Save reader settings"
        submit={async () => {
          await updateSite(site.id, {
            public_feeds: feeds,
            article_url_pattern: pattern.trim() || null,
            article_schema_type: type,
          })
          saved()
        }}
      >
        <Field
          label="Article URL pattern"
          hint="Where the site's articles live, with {slug}: https://blog.example.com/{slug}. Empty: https://{domain}/{slug}"
        >
          <input
            name="article_url_pattern"
            maxlength={500}
            value={pattern}
            placeholder="https://blog.example.com/{slug}"
            onInput={(e: Event) => setPattern((e.target as HTMLInputElement).value)}
          />
        </Field>
        <label class="field inline">
          <input
            type="checkbox"
            name="public_feeds"
            checked={feeds}
            onChange={(e: Event) => setFeeds((e.target as HTMLInputElement).checked)}
          />
          <span>
            Public feeds and sitemap (RSS, Atom, JSON Feed, sitemap.xml): readers need no key; they show
            published articles only
          </span>
        </label>
        <label class="field inline">
          <span>Structured data type</span>
          <select
            name="article_schema_type"
            value={type}
            onChange={(e: Event) => setType((e.target as HTMLSelectElement).value as typeof type)}
          >
            <option value="Article">Article</option>
            <option value="NewsArticle">NewsArticle</option>
            <option value="BlogPosting">BlogPosting</option>
          </select>
        </label>
      </Form>
      {site.public_feeds ? (
        <p class="muted">
          Feeds: <a href={`${base}/rss.xml`}>RSS</a> · <a href={`${base}/atom.xml`}>Atom</a> ·{' '}
          <a href={`${base}/feed.json`}>JSON Feed</a> · <a href={`${base}/sitemap.xml`}>sitemap</a>
        </p>
      ) : null}
    </details>
  )
}

export function SitePage({ id }: { id: string }): VNode {
  const site = useSite(id)
  const [q, setQ] = useState('')
  const [status, setStatus] = useState<'' | ArticleStatus>('')
  const [pages, setPages] = useState<ContentItem[][]>([])
  const query = (cursor?: string) =>
    listContent({
      type: 'article',
      site_id: id,
      limit: 50,
      order: 'newest',
      ...(q && { q }),
      ...(status && { status }),
      ...(cursor && { cursor }),
    })
  const articles = useLoad(async () => {
    setPages([])
    return query()
  }, [q, status])
  const [more, setMore] = useState<{ cursor?: string | null; busy?: boolean; error?: unknown }>({})
  const nextCursor = more.cursor !== undefined ? more.cursor : articles.data?.next_cursor
  const loadMore = async () => {
    setMore({ cursor: nextCursor, busy: true })
    try {
      const page = await query(nextCursor ?? undefined)
      setPages((p) => [...p, page.data])
      setMore({ cursor: page.next_cursor ?? null })
    } catch (error) {
      setMore({ cursor: nextCursor, error })
    }
  }
  const filtered = Boolean(q || status)
  return (
    <section>
      <p>
        <a href="#/sites">← Sites</a>
      </p>
      <Loaded state={site}>
        {(s) => (
          <>
            <h1>{s.name}</h1>
            <p class="muted">
              {s.domain ? (
                <>
                  <strong>{s.domain}</strong> ·{' '}
                </>
              ) : null}
              {plural(siteCounts(s).articles, 'article')} ({num(siteCounts(s).published)} published,{' '}
              {num(siteCounts(s).drafts)} drafts)
              {` · ${plural(siteCounts(s).sources, 'source')} · ${plural(siteCounts(s).affiliate_destinations, 'affiliate destination')}`}
            </p>
            <ReaderSettings site={s} saved={site.reload} />
            <details class="card" open={siteCounts(s).articles === 0}>
              <summary>New article</summary>
              <Form
                label="New article"
                submitLabel="Create draft"
                submit={async (d: FormData) => {
                  const created = await createArticle({
                    site_id: s.id,
                    title: String(d.get('title')).trim(),
                    body: String(d.get('body') ?? ''),
                  })
                  location.hash = `#/articles/${created.id}`
                }}
              >
                <Field label="Title" hint="1 to 500 characters">
                  <input name="title" required maxlength={500} />
                </Field>
                <Field label="Body (Markdown)" hint="Markdown, up to 200,000 characters">
                  <textarea name="body" rows={6} maxlength={200000}></textarea>
                </Field>
              </Form>
            </details>
          </>
        )}
      </Loaded>
      <div class="row wrap">
        <Search value={q} onSearch={setQ} label="Search articles by title" />
        <label class="field inline">
          <span>Status</span>
          <select
            aria-label="Article status"
            value={status}
            onChange={(e: Event) => setStatus((e.target as HTMLSelectElement).value as typeof status)}
          >
            <option value="">All</option>
            <option value="draft">Drafts</option>
            <option value="scheduled">Scheduled</option>
            <option value="published">Published</option>
          </select>
        </label>
        <span class="grow"></span>
        <RefreshButton reload={articles.reload} loading={articles.loading} />
      </div>
      <Loaded state={articles}>
        {(first) => {
          const rows = [first.data, ...pages].flat()
          if (!rows.length)
            return filtered ? (
              <p class="muted">No article matches.</p>
            ) : (
              <p class="note">
                No articles yet. Write one with <strong>New article</strong>, or generate drafts from a
                source's items: add a source under <a href="#/sources">Sources</a>.
              </p>
            )
          return (
            <>
              <table>
                <caption class="sr">Articles</caption>
                <thead>
                  <tr>
                    <th>Title</th>
                    <th>Status</th>
                    <th>Updated</th>
                  </tr>
                </thead>
                <tbody>
                  {rows.map((a) => (
                    <tr data-article={a.id}>
                      <td data-label="Title">
                        <a href={`#/articles/${a.id}`}>{a.title}</a>
                      </td>
                      <td data-label="Status">
                        <StatusPill status={a.status} />
                        <ReviewPill at={a.review_requested_at} />
                        {a.published_at ? (
                          <>
                            {' '}
                            <small class="muted" title={when(a.published_at)}>
                              {ago(a.published_at)}
                            </small>
                          </>
                        ) : null}
                      </td>
                      <td data-label="Updated" title={when(a.updated_at)}>
                        {ago(a.updated_at)}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
              {nextCursor ? (
                <button type="button" onClick={loadMore} disabled={more.busy} aria-busy={more.busy}>
                  {more.busy ? <span class="spinner" aria-hidden="true"></span> : null}Load more
                </button>
              ) : null}
              <ErrorNote error={more.error} />
            </>
          )
        }}
      </Loaded>
    </section>
  )
}

function RefreshButton({ reload, loading }: { reload: () => void; loading: boolean }): VNode {
  return (
    <button type="button" onClick={reload} aria-busy={loading}>
      {loading ? <span class="spinner" aria-hidden="true"></span> : null}Refresh
    </button>
  )
}

/** The scraped items a generated draft was written from; nothing for an article written by hand. */
export function Sources({ id }: { id: string }): VNode | null {
  const sources = useArticleSources(id)
  if (sources.error) return <ErrorNote error={sources.error} />
  if (!sources.data) return <Loading label="Loading the sources" />
  if (!sources.data.data.length) return null
  return (
    <section class="card" aria-label="Generated from">
      <h2>Generated from</h2>
      <p class="muted">generate-article wrote this draft from {plural(sources.data.data.length, 'item')}:</p>
      <ol class="items">
        {sources.data.data.map((i) => (
          <li>
            {safeHref(i.url) ? (
              <a href={safeHref(i.url)} rel="noopener noreferrer" target="_blank">
                {i.title ?? i.url}
              </a>
            ) : (
              (i.title ?? '(untitled)')
            )}
            <small class="muted">
              {' '}
              {i.source_name}
              {i.author ? `, ${i.author}` : ''}
              {i.published_at ? `, ${ago(i.published_at)}` : ''}
            </small>
          </li>
        ))}
      </ol>
    </section>
  )
}
