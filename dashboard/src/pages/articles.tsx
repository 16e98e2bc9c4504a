/**
 * Articles across all the workspace's sites, newest first: filtered by site, status, tag and
 * author, searched by title, a page at a time; and a new article started in any site. The menu's
 * Review, Scheduled and My drafts are this page opened on their filter (`view`).
 */
import type { VNode } from 'preact'
import { useEffect, useState } from 'preact/hooks'
import {
  type ArticleStatus,
  type ContentItem,
  type ContentQuery,
  createArticle,
  listContent,
  useTags,
} from '../data/content.ts'
import { useLoad } from '../data/load.ts'
import { useMembers } from '../data/team.ts'
import { ago, when } from '../format.ts'
import { Field, Form, Loaded } from '../ui.tsx'
import { ReviewPill, Search, StatusPill } from './content.tsx'

/** Rows per page. */
const ARTICLES_PAGE = 20

interface Filters {
  q: string
  site_id: string
  /** A status, or 'review': drafts waiting for review. */
  status: '' | ArticleStatus | 'review'
  tag: string
  author: string
}

/** The menu's views of this page: their heading, what they say, and the filter they open on. */
const views = {
  all: {
    title: 'Articles',
    lead: "Every site's articles, newest first. Open one to write, preview, schedule and publish it.",
  },
  review: {
    title: 'Review',
    lead: 'Drafts their writers submitted. Open one to publish or schedule it, or return it with a note.',
  },
  scheduled: { title: 'Scheduled', lead: 'Articles that go out on their own at the time set.' },
  drafts: {
    title: 'My drafts',
    lead: 'Your drafts. Submit one for review when it is ready; an editor publishes it or returns it with a note.',
  },
} as const
type View = keyof typeof views

function initialFilters(view: View, userId?: string): Filters {
  const none: Filters = { q: '', site_id: '', status: '', tag: '', author: '' }
  if (view === 'review') return { ...none, status: 'review' }
  if (view === 'scheduled') return { ...none, status: 'scheduled' }
  if (view === 'drafts') return { ...none, status: 'draft', author: userId ?? '' }
  return none
}

/** Said when a view has nothing in it (no filter changed). */
const emptyViews: Partial<Record<View, string>> = {
  review: 'Nothing waits for review.',
  scheduled: 'Nothing is scheduled.',
  drafts: 'You have no drafts in progress. Start one with New article above.',
}

export function ArticlesPage({ view = 'all', userId }: { view?: View; userId?: string }): VNode {
  const initial = initialFilters(view, userId)
  const [filters, setFilters] = useState<Filters>(initial)
  const sites = useLoad(() => listContent({ type: 'site', limit: 100 }))
  const tags = useTags()
  const members = useMembers()
  // Pages already shown: each entry is the cursor that reads it (the first has none).
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined])
  const at = cursors.length - 1
  const query: ContentQuery = {
    type: 'article',
    order: 'newest',
    limit: ARTICLES_PAGE,
    ...Object.fromEntries(
      Object.entries(filters).filter(([k, v]) => v && !(k === 'status' && v === 'review')),
    ),
    // "Waiting for review" is a filter of its own: drafts a contributor submitted.
    ...(filters.status === 'review' && { review: 'requested' }),
    ...(cursors[at] && { cursor: cursors[at] }),
  }
  const articles = useLoad(() => listContent(query), [JSON.stringify(query)])
  const filter = (patch: Partial<Filters>) => {
    setFilters((f) => ({ ...f, ...patch }))
    setCursors([undefined])
  }
  const siteName = new Map((sites.data?.data ?? []).map((s) => [s.id, s.name]))
  const filtered = JSON.stringify(filters) !== JSON.stringify(initial)
  const select = (
    label: string,
    value: string,
    key: keyof Filters,
    options: [string, string][],
    all: string,
  ) => (
    <label class="field inline">
      <span>{label}</span>
      <select
        aria-label={`Filter by ${label.toLowerCase()}`}
        value={value}
        onChange={(e: Event) => filter({ [key]: (e.target as HTMLSelectElement).value })}
      >
        <option value="">{all}</option>
        {options.map(([v, text]) => (
          <option value={v}>{text}</option>
        ))}
      </select>
    </label>
  )

  return (
    <section>
      <h1>{views[view].title}</h1>
      <p class="muted">{views[view].lead}</p>
      <NewArticle sites={sites.data?.data ?? []} />
      <div class="row wrap filters">
        <Search value={filters.q} onSearch={(q: string) => filter({ q })} label="Search articles by title" />
        {select(
          'Site',
          filters.site_id,
          'site_id',
          (sites.data?.data ?? []).map((s) => [s.id, s.name ?? '']),
          'All sites',
        )}
        {select(
          'Status',
          filters.status,
          'status',
          [
            ['draft', 'Drafts'],
            ['review', 'Waiting for review'],
            ['scheduled', 'Scheduled'],
            ['published', 'Published'],
          ],
          'Any status',
        )}
        {select(
          'Tag',
          filters.tag,
          'tag',
          (tags.data?.data ?? []).map((t) => [t.slug, t.name]),
          'Any tag',
        )}
        {select(
          'Author',
          filters.author,
          'author',
          (members.data?.data ?? []).map((m) => [m.user_id, m.email ?? m.user_id]),
          'Anyone',
        )}
      </div>
      <Loaded state={articles}>
        {(page) => {
          if (!page.data.length)
            return emptyViews[view] && !filtered && at === 0 ? (
              <p class="muted">{emptyViews[view]}</p>
            ) : filtered || view !== 'all' ? (
              <p class="muted">No article matches.</p>
            ) : at > 0 ? (
              <p class="muted">No more articles.</p>
            ) : (
              <p class="note">
                No articles yet. Start one with <strong>New article</strong> above, or have drafts generated
                from a source's items under <a href="#/sources">Sources</a>.
              </p>
            )
          return (
            <table class="articles" aria-busy={articles.loading}>
              <caption class="sr">Articles</caption>
              <thead>
                <tr>
                  <th>Title</th>
                  <th>Site</th>
                  <th>Status</th>
                  <th>Updated</th>
                </tr>
              </thead>
              <tbody>
                {page.data.map((a) => (
                  <tr data-article={a.id}>
                    <td data-label="Title">
                      <a href={`#/articles/${a.id}`}>
                        <strong>{a.title}</strong>
                      </a>
                      <br />
                      <small class="muted mono">/{a.slug}</small>
                    </td>
                    <td data-label="Site">{siteName.get(a.site_id ?? '') ?? '…'}</td>
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
          )
        }}
      </Loaded>
      {at > 0 || articles.data?.next_cursor ? (
        <div class="row pager" role="navigation" aria-label="Pages">
          <button type="button" disabled={at === 0} onClick={() => setCursors((c) => c.slice(0, -1))}>
            ← Newer
          </button>
          <span class="muted" aria-live="polite">
            Page {at + 1}
          </span>
          <button
            type="button"
            disabled={!articles.data?.next_cursor}
            onClick={() => setCursors((c) => [...c, articles.data?.next_cursor ?? undefined])}
          >
            Older →
          </button>
        </div>
      ) : null}
    </section>
  )
}

/**
 * The menu's count of drafts waiting for review (editors): read on opening, every minute, and when
 * a page says review changed (submitted, returned, published).
 */
export function ReviewBadge(): VNode | null {
  const [count, setCount] = useState(0)
  useEffect(() => {
    let live = true
    const load = () =>
      listContent({ type: 'article', review: 'requested', limit: 100 })
        .then((p) => live && setCount(p.data.length))
        .catch(() => undefined)
    load()
    const timer = setInterval(load, 60_000)
    // Publishing or returning a draft happens on the article's page: leaving it reads again too.
    window.addEventListener('review-changed', load)
    window.addEventListener('hashchange', load)
    return () => {
      live = false
      clearInterval(timer)
      window.removeEventListener('review-changed', load)
      window.removeEventListener('hashchange', load)
    }
  }, [])
  if (count === 0) return null
  return (
    <>
      {' '}
      {/* biome-ignore lint/a11y/useAriaPropsSupportedByRole: as ApprovalsBadge; the link's name reads "Review 3 waiting" */}
      <span class="pill pending count" aria-label={`${count} waiting`}>
        {count > 99 ? '99+' : count}
      </span>
    </>
  )
}

/** A title and a site: the draft is made and the editor opens on it. */
function NewArticle({ sites }: { sites: ContentItem[] }): VNode {
  if (!sites.length)
    return (
      <p class="note">
        Articles belong to a site: <a href="#/sites">create a site</a> first.
      </p>
    )
  return (
    <details class="card">
      <summary>New article</summary>
      <Form
        label="New article"
        submitLabel="Create and edit"
        class="inline"
        submit={async (d: FormData) => {
          const created = await createArticle({
            site_id: String(d.get('site_id')),
            title: String(d.get('title')).trim(),
          })
          location.hash = `#/articles/${created.id}`
        }}
      >
        <Field label="Title">
          <input name="title" required maxlength={500} placeholder="What it is about" />
        </Field>
        <Field label="Site">
          <select name="site_id">
            {sites.map((s) => (
              <option value={s.id}>{s.name}</option>
            ))}
          </select>
        </Field>
      </Form>
    </details>
  )
}
