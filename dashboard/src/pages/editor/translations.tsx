/**
 * The article editor's Translations panel: the article's translation group side by side (each
 * locale's article with its state and a link to edit it), and a draft translation made in one of
 * the site's locales the group lacks (POST /v1/content/articles/{id}/translations; it starts from
 * the source's fields and opens in the editor for review). docs/content.md "Translations".
 */
import type { VNode } from 'preact'
import { useState } from 'preact/hooks'
import {
  type ArticleStatus,
  createTranslation,
  type Translation,
  useTranslations,
} from '../../data/content.ts'
import { when } from '../../format.ts'
import { Action, Loaded } from '../../ui.tsx'
import { ReviewPill, StatusPill } from '../content.tsx'

/** The locale's name in the browser's language (fr: French), and the tag itself. */
function localeName(tag: string): string {
  try {
    const name = new Intl.DisplayNames(undefined, { type: 'language' }).of(tag)
    return name && name !== tag ? `${name} (${tag})` : tag
  } catch {
    return tag
  }
}

export function Translations({
  article,
  locales,
}: {
  article: { id: string; revision_id: string | null; status: ArticleStatus }
  /** The site's locales; undefined while the site loads. */
  locales: string[] | undefined
}): VNode {
  const group = useTranslations(article.id, [article.revision_id, article.status])
  const [locale, setLocale] = useState('')
  return (
    <section class="card translations" aria-label="Translations">
      <h2>Translations</h2>
      <Loaded state={group}>
        {({ data }) => {
          const missing = (locales ?? []).filter((l) => !data.some((t) => t.locale === l))
          const chosen = missing.includes(locale) ? locale : (missing[0] ?? '')
          return (
            <>
              <table class="translation-table">
                <thead>
                  <tr>
                    <th>Locale</th>
                    <th>Title</th>
                    <th>State</th>
                  </tr>
                </thead>
                <tbody>
                  {data.map((t) => (
                    <Row t={t} current={t.article_id === article.id} />
                  ))}
                </tbody>
              </table>
              {missing.length === 0 ? (
                <p class="muted">{locales ? 'Every locale of the site has its article.' : ''}</p>
              ) : (
                <>
                  <div class="row wrap">
                    <label class="field">
                      <span>New translation in</span>
                      <select
                        aria-label="New translation in"
                        value={chosen}
                        onChange={(e) => setLocale((e.target as HTMLSelectElement).value)}
                      >
                        {missing.map((l) => (
                          <option value={l}>{localeName(l)}</option>
                        ))}
                      </select>
                    </label>
                    <Action
                      run={async () => {
                        const made = await createTranslation(article.id, chosen)
                        // The draft starts as the source's text: it opens in the editor to be translated.
                        location.hash = `#/articles/${made.id}`
                      }}
                    >
                      Draft translation
                    </Action>
                  </div>
                  <p class="muted">
                    A draft in that locale, starting from the source's text, with its own slug, state and
                    revisions. The assistant can draft it translated (translate_article).
                  </p>
                </>
              )}
            </>
          )
        }}
      </Loaded>
    </section>
  )
}

function Row({ t, current }: { t: Translation; current: boolean }): VNode {
  return (
    <tr data-locale={t.locale} aria-current={current ? 'page' : undefined}>
      <td data-label="Locale">
        {localeName(t.locale)}
        {t.source ? (
          <>
            {' '}
            <span class="pill">source</span>
          </>
        ) : null}
      </td>
      <td data-label="Title">
        {current ? (
          <>
            <strong>{t.title}</strong> <small class="muted">(this one)</small>
          </>
        ) : (
          <a href={`#/articles/${t.article_id}`}>{t.title}</a>
        )}
        <br />
        <small class="muted mono">/{t.slug}</small>
      </td>
      <td data-label="State">
        <StatusPill status={t.status} />
        <ReviewPill at={t.review_requested_at} />
        {t.published_at ? (
          <>
            <br />
            <small class="muted">since {when(t.published_at)}</small>
          </>
        ) : null}
        {t.publish_at ? (
          <>
            <br />
            <small class="muted">at {when(t.publish_at)}</small>
          </>
        ) : null}
      </td>
    </tr>
  )
}
