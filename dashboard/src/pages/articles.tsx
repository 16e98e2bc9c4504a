/**
 * Articles across all the workspace's sites, newest first: filtered by site, status, tag and
 * author, searched by title, a page at a time; and a new article started in any site.
 */
import type { VNode } from 'preact'
import { useState } from 'preact/hooks'
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

export function ArticlesPage(): VNode {
  const [filters, setFilters] = useState<Filters>({ q: '', site_id: '', status: '', tag: '', author: '' })
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
  const filtered = Object.values(filters).some(Boolean)
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
      <h1>Articles</h1>
      <p class="muted">
        Every site's articles, newest first. Open one to write, preview, schedule and publish it.
      </p>
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
            return filtered ? (
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
