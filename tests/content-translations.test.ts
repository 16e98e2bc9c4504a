// Translations (docs/content.md "Translations"), over real HTTP: a site's locales, a translation
// drafted by the assistant with a scripted model (the provider on loopback), reviewed and published
// by an editor, read back with `locale` and its alternates (by id, by slug, the list, include=seo,
// the sitemap), the fallback, and the bad inputs, each refused naming its field with nothing written.
import { SaxesParser } from 'saxes'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ScriptedLlm, startScriptedLlm } from './support/assistant-llm.ts'
import {
  addMember,
  startTestPlatform,
  TestClock,
  type TestPlatform,
  type TestTenant,
} from './support/platform.ts'

let tp: TestPlatform
let llm: ScriptedLlm
let t: TestTenant
let publicKey: string
let siteId: string
const clock = new TestClock(new Date('2026-12-08T09:00:00Z'))
const OPENAI = 'bc152fb4-8e13-4148-bfdc-1734d3f3c667'

beforeAll(async () => {
  llm = await startScriptedLlm()
  tp = await startTestPlatform({
    clock,
    env: { OPENAI_BASE_URL: llm.openaiBaseUrl, ANTHROPIC_BASE_URL: llm.anthropicBaseUrl },
  })
  t = await tp.createTenant()
  await tp.db.sql`update public.tenants set plan = 'pro' where id = ${t.tenantId}`
  const credential = await tp.json('/api/credentials', {
    token: t.token,
    body: { provider_id: OPENAI, name: 'openai', environment: 'production', credential: llm.key },
  })
  expect(credential.status, JSON.stringify(credential.body)).toBe(201)
  const key = await tp.json('/api/api-keys', {
    token: t.token,
    body: {
      name: 'site',
      environment: 'production',
      scopes: ['content:read'],
      published_only: true,
      rate_limit_per_minute: 1000,
    },
  })
  expect(key.status).toBe(201)
  publicKey = key.body.key
  const site = await tp.json('/v1/content/sites', {
    token: t.token,
    body: {
      name: 'Le Jardin',
      domain: 'garden.example.com',
      article_url_pattern: 'https://garden.example.com/{locale}/{slug}',
      default_locale: 'en',
      locales: ['en', 'fr', 'pt-br'],
      public_feeds: true,
    },
  })
  expect(site.status, JSON.stringify(site.body)).toBe(201)
  expect(site.body).toMatchObject({ default_locale: 'en', locales: ['en', 'fr', 'pt-BR'] })
  siteId = site.body.id
}, 120_000)
afterAll(async () => {
  await llm?.close()
  await tp?.close()
})

async function published(title: string, body = 'Cut above an outward bud.') {
  const made = await tp.json('/v1/content/articles', {
    token: t.token,
    body: { site_id: siteId, title, body },
  })
  expect(made.status, JSON.stringify(made.body)).toBe(201)
  const pub = await tp.json(`/v1/content/articles/${made.body.id}/publish`, {
    method: 'POST',
    token: t.token,
  })
  expect(pub.status).toBe(200)
  return made.body as { id: string; slug: string; locale: string }
}

const articleCount = async () =>
  Number(
    (
      await tp.db.sql<
        { n: string }[]
      >`select count(*) as n from public.articles where tenant_id = ${t.tenantId}`
    )[0]!.n,
  )

/** The assistant, scripted: reads the article, then drafts its French translation with translate_article. */
async function assistantTranslates(articleId: string) {
  llm.reset([
    { toolCalls: [{ name: 'platform__get_content', arguments: { type: 'article', id: articleId } }] },
    {
      toolCalls: [
        {
          name: 'platform__translate_article',
          arguments: {
            article_id: articleId,
            locale: 'fr',
            title: 'Tailler les rosiers',
            body: 'Coupez au-dessus d’un bourgeon tourné vers l’extérieur.',
            slug: 'tailler-les-rosiers',
          },
        },
      ],
    },
    { text: 'J’ai rédigé la traduction française pour relecture.' },
  ])
  const conversation = await tp.json('/v1/assistant/conversations', { token: t.token, body: {} })
  const said = await tp.json(`/v1/assistant/conversations/${conversation.body.id}/messages`, {
    token: t.token,
    body: { content: 'Translate the roses article into French for review.' },
  })
  expect(said.status, JSON.stringify(said.body)).toBe(200)
  return said.body
}

describe('a translation drafted by the assistant', () => {
  it('is a draft for review (no approval asked), published by an editor, and read back with locale and alternates', async () => {
    const source = await published('Pruning roses')
    expect(source.locale).toBe('en')
    const said = await assistantTranslates(source.id)
    // A draft goes in front of no reader: the turn does not wait for approval.
    expect(said.turn?.status, JSON.stringify(said)).toBe('completed')
    const calls = said.tool_calls.map((c: { tool: string; status: string }) => [c.tool, c.status])
    expect(calls).toEqual([
      ['platform:get_content', 'ok'],
      ['platform:translate_article', 'ok'],
    ])
    // The model was given the source's text to translate.
    expect(JSON.stringify(llm.requests.at(-2)!.body.messages)).toContain('Cut above an outward bud.')

    // The editor reviews the group side by side: the French draft beside the published source.
    const group = await tp.json(`/v1/content/articles/${source.id}/translations`, { token: t.token })
    expect(group.status, JSON.stringify(group.body)).toBe(200)
    expect(group.body.data.map((g: Record<string, unknown>) => [g.locale, g.status, g.source])).toEqual([
      ['en', 'published', true],
      ['fr', 'draft', false],
    ])
    const frId = group.body.data[1].article_id as string
    const fr = await tp.json(`/v1/content/articles/${frId}`, { token: t.token })
    expect(fr.body).toMatchObject({
      locale: 'fr',
      translation_of: source.id,
      status: 'draft',
      title: 'Tailler les rosiers',
      slug: 'tailler-les-rosiers',
    })
    // Its own revisions: the draft's first save.
    const revisions = await tp.json(`/v1/content/articles/${frId}/revisions`, { token: t.token })
    expect(revisions.body.data).toHaveLength(1)

    // Before it is published, a published-only key asking for French falls back to the default (en).
    const before = await tp.json(`/v1/content/articles/${source.id}?locale=fr`, { token: publicKey })
    expect(before.body).toMatchObject({ id: source.id, locale: 'en' })
    expect(before.body.alternates.map((a: { locale: string }) => a.locale)).toEqual(['en'])

    // Reviewed and published.
    const edited = await tp.json(`/v1/content/articles/${frId}`, {
      method: 'PATCH',
      token: t.token,
      body: { body: 'Coupez juste au-dessus d’un bourgeon tourné vers l’extérieur.' },
    })
    expect(edited.status).toBe(200)
    expect(
      (await tp.json(`/v1/content/articles/${frId}/publish`, { method: 'POST', token: t.token })).status,
    ).toBe(200)

    const alternates = [
      {
        id: source.id,
        locale: 'en',
        slug: 'pruning-roses',
        status: 'published',
        url: 'https://garden.example.com/en/pruning-roses',
      },
      {
        id: frId,
        locale: 'fr',
        slug: 'tailler-les-rosiers',
        status: 'published',
        url: 'https://garden.example.com/fr/tailler-les-rosiers',
      },
    ]
    // By id, by slug (the source's slug, asked in French), and the French slug itself.
    const byId = await tp.json(`/v1/content/articles/${source.id}?locale=fr`, { token: publicKey })
    expect(byId.body).toMatchObject({
      id: frId,
      locale: 'fr',
      body: 'Coupez juste au-dessus d’un bourgeon tourné vers l’extérieur.',
    })
    expect(byId.body.alternates).toEqual(alternates)
    const bySlug = await tp.json(`/v1/content/sites/${siteId}/articles/pruning-roses?locale=fr`, {
      token: publicKey,
    })
    expect(bySlug.body).toMatchObject({ id: frId, locale: 'fr' })
    expect(bySlug.body.alternates).toEqual(alternates)
    const frSlug = await tp.json(`/v1/content/sites/${siteId}/articles/tailler-les-rosiers`, {
      token: publicKey,
    })
    expect(frSlug.body).toMatchObject({ id: frId, translation_of: source.id })
    expect(frSlug.body.alternates).toEqual(alternates)
    // The fallback: a locale the group lacks (pt-BR, offered by the site) gives the default's article.
    const pt = await tp.json(`/v1/content/sites/${siteId}/articles/tailler-les-rosiers?locale=pt-br`, {
      token: publicKey,
    })
    expect(pt.body).toMatchObject({ id: source.id, locale: 'en' })

    // include=seo: inLanguage, the translation links of schema.org, hreflang alternates with x-default.
    const seo = await tp.json(`/v1/content/sites/${siteId}/articles/tailler-les-rosiers?include=seo`, {
      token: publicKey,
    })
    expect(seo.body.seo.json_ld).toMatchObject({
      inLanguage: 'fr',
      translationOfWork: { '@id': 'https://garden.example.com/en/pruning-roses' },
    })
    const hreflang = seo.body.seo.alternates.filter((a: { hreflang?: string }) => a.hreflang)
    expect(hreflang).toEqual([
      { href: 'https://garden.example.com/en/pruning-roses', type: 'text/html', hreflang: 'en' },
      { href: 'https://garden.example.com/fr/tailler-les-rosiers', type: 'text/html', hreflang: 'fr' },
      { href: 'https://garden.example.com/en/pruning-roses', type: 'text/html', hreflang: 'x-default' },
    ])
    const sourceSeo = await tp.json(`/v1/content/sites/${siteId}/articles/pruning-roses?include=seo`, {
      token: publicKey,
    })
    expect(sourceSeo.body.seo.json_ld.workTranslation).toEqual([
      { '@type': 'Article', '@id': 'https://garden.example.com/fr/tailler-les-rosiers', inLanguage: 'fr' },
    ])

    // The sitemap gives each article its address in its own locale.
    const sitemap = await tp.request(`/feeds/${siteId}/sitemap.xml`)
    const locs: string[] = []
    const parser = new SaxesParser({ xmlns: true })
    let inLoc = false
    parser.on('opentag', (n) => {
      inLoc = n.local === 'loc'
    })
    parser.on('text', (text) => {
      if (inLoc) locs.push(text)
    })
    parser.on('closetag', () => {
      inLoc = false
    })
    parser.write(await sitemap.text()).close()
    expect(locs).toEqual(
      expect.arrayContaining([
        'https://garden.example.com/en/pruning-roses',
        'https://garden.example.com/fr/tailler-les-rosiers',
      ]),
    )

    // A feed per locale: only the French articles, with the feed's language (read back by saxes).
    const rss = await tp.request(`/feeds/${siteId}/rss.xml?locale=fr`)
    expect(rss.status).toBe(200)
    const texts: Record<string, string[]> = {}
    const feed = new SaxesParser({ xmlns: true })
    let open = ''
    feed.on('opentag', (n) => {
      open = n.local
    })
    feed.on('text', (text) => {
      if (open && text.trim()) texts[open] = [...(texts[open] ?? []), text.trim()]
    })
    feed.on('closetag', () => {
      open = ''
    })
    feed.write(await rss.text()).close()
    expect(texts.language).toEqual(['fr'])
    expect(texts.guid).toEqual(['https://garden.example.com/fr/tailler-les-rosiers'])
  })
})

describe('reads in a locale', () => {
  it('lists each group once in the locale asked for, falling back to the default, and names each item’s locale', async () => {
    const one = await published('Tulips early')
    const two = await published('Rain returns')
    const tr = await tp.json(`/v1/content/articles/${one.id}/translations`, {
      token: t.token,
      body: { locale: 'fr', title: 'Tulipes précoces' },
    })
    expect(tr.status, JSON.stringify(tr.body)).toBe(201)
    await tp.json(`/v1/content/articles/${tr.body.id}/publish`, { method: 'POST', token: t.token })
    const page = await tp.json(`/v1/content?type=article&site_id=${siteId}&locale=fr&limit=100`, {
      token: publicKey,
    })
    expect(page.status, JSON.stringify(page.body)).toBe(200)
    const ids = page.body.data.map((i: { id: string; locale: string }) => [i.id, i.locale])
    expect(ids).toEqual(
      expect.arrayContaining([
        [tr.body.id, 'fr'],
        [two.id, 'en'],
      ]),
    )
    expect(ids).not.toContainEqual([one.id, 'en'])
    // Without locale, every article the caller sees, each with its locale.
    const all = await tp.json(`/v1/content?type=article&site_id=${siteId}&limit=100`, { token: publicKey })
    expect(all.body.data.map((i: { id: string }) => i.id)).toEqual(
      expect.arrayContaining([one.id, tr.body.id, two.id]),
    )
    // A tag that is not BCP 47 is refused naming locale.
    const bad = await tp.json(`/v1/content/articles/${one.id}?locale=not_a_locale`, { token: publicKey })
    expect([bad.status, bad.body.details?.[0]?.field]).toEqual([400, 'locale'])
  })
})

describe('bad input', () => {
  it('refuses an unknown locale, a second article in one locale and a bad site setting, naming the field, and writes nothing', async () => {
    const source = await published('Compost basics')
    const n = await articleCount()
    const post = (body: Record<string, unknown>, id = source.id) =>
      tp.json(`/v1/content/articles/${id}/translations`, { token: t.token, body })

    const notOffered = await post({ locale: 'de' })
    expect([notOffered.status, notOffered.body.code, notOffered.body.details?.[0]?.field]).toEqual([
      400,
      'VALIDATION_ERROR',
      'locale',
    ])
    expect(notOffered.body.message).toContain('de')
    const notBcp47 = await post({ locale: 'français!' })
    expect([notBcp47.status, notBcp47.body.details?.[0]?.field]).toEqual([400, 'locale'])
    const noLocale = await post({ title: 'x' })
    expect([noLocale.status, noLocale.body.details?.[0]?.field]).toEqual([400, 'locale'])
    // The source's own locale is taken by the source.
    const sameAsSource = await post({ locale: 'en' })
    expect([sameAsSource.status, sameAsSource.body.details?.[0]?.field]).toEqual([409, 'locale'])
    expect(await articleCount()).toBe(n)

    const fr = await post({ locale: 'FR' })
    expect(fr.status, JSON.stringify(fr.body)).toBe(201)
    expect(fr.body).toMatchObject({
      locale: 'fr',
      translation_of: source.id,
      status: 'draft',
      title: 'Compost basics',
    })
    // A second French one, asked of the source or of the translation: 409 naming locale.
    const again = await post({ locale: 'fr', title: 'Autre' })
    expect([again.status, again.body.code, again.body.details?.[0]?.field]).toEqual([
      409,
      'CONFLICT',
      'locale',
    ])
    expect(again.body.message).toContain(fr.body.id)
    const viaTranslation = await post({ locale: 'fr' }, fr.body.id)
    expect([viaTranslation.status, viaTranslation.body.details?.[0]?.field]).toEqual([409, 'locale'])
    // A translation asked of a translation joins the source's group.
    const pt = await post({ locale: 'pt-BR', slug: 'compostagem' }, fr.body.id)
    expect(pt.status, JSON.stringify(pt.body)).toBe(201)
    expect(pt.body.translation_of).toBe(source.id)
    // A slug another article of the site holds is still 409 naming slug.
    const slugTaken = await post({ locale: 'en', slug: 'compostagem' })
    expect(slugTaken.status).toBe(409)
    expect(await articleCount()).toBe(n + 2)
    const unknown = await post({ locale: 'fr' }, '00000000-0000-4000-8000-000000000000')
    expect(unknown.status).toBe(404)

    // Site settings: a default outside the list, a bad tag, and dropping a locale articles are in.
    const patch = (body: Record<string, unknown>) =>
      tp.json(`/v1/content/sites/${siteId}`, { method: 'PATCH', token: t.token, body })
    const outside = await patch({ default_locale: 'de' })
    expect([outside.status, outside.body.details?.[0]?.field]).toEqual([400, 'default_locale'])
    const badTag = await patch({ locales: ['en', 'x'] })
    expect([badTag.status, badTag.body.details?.[0]?.field?.startsWith('locales')]).toEqual([400, true])
    const dropUsed = await patch({ locales: ['en'] })
    expect([dropUsed.status, dropUsed.body.details?.[0]?.field]).toEqual([400, 'locales'])
    const site = await tp.json(`/v1/content/sites/${siteId}`, { token: t.token })
    expect(site.body).toMatchObject({ default_locale: 'en', locales: ['en', 'fr', 'pt-BR'] })
  })

  it('lets a contributor draft a translation of its own, not publish it; a published-only key lists none', async () => {
    const source = await published('Mulching')
    const contributor = await addMember(tp, t.tenantId, 'contributor')
    const tr = await tp.json(`/v1/content/articles/${source.id}/translations`, {
      token: contributor.token,
      body: { locale: 'fr', title: 'Paillage' },
    })
    expect(tr.status, JSON.stringify(tr.body)).toBe(201)
    expect(tr.body.author?.id).toBe(contributor.userId)
    const publish = await tp.json(`/v1/content/articles/${tr.body.id}/publish`, {
      method: 'POST',
      token: contributor.token,
    })
    expect(publish.status).toBe(403)
    const listed = await tp.json(`/v1/content/articles/${source.id}/translations`, { token: publicKey })
    expect(listed.status).toBe(403)
    const made = await tp.json(`/v1/content/articles/${source.id}/translations`, {
      token: publicKey,
      body: { locale: 'pt-BR' },
    })
    expect(made.status).toBe(403)
    // The draft is no alternate for a published-only key.
    const read = await tp.json(`/v1/content/articles/${source.id}`, { token: publicKey })
    expect(read.body.alternates.map((a: { locale: string }) => a.locale)).toEqual(['en'])
  })
})
