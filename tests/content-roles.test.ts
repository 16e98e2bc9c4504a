import { withTenant } from '@shared/infra/db.ts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addMember, startTestPlatform, type TestPlatform, type TestTenant } from './support/platform.ts'
import { createLoneUser, outbox } from './support/tenancy.ts'

/**
 * The contributor role (docs/adr/0027-contributor-role.md): writes and edits its own drafts and
 * submits them for review; editors (member, admin, owner) publish. The service refuses with 403,
 * and the database refuses the same writes made directly as the contributor.
 */

let tp: TestPlatform
let owner: TestTenant
let editor: TestTenant
let contributor: TestTenant
let siteId: string

beforeAll(async () => {
  tp = await startTestPlatform()
  owner = await tp.createTenant()
  await tp.db.sql`update public.tenants set plan = 'pro' where id = ${owner.tenantId}`
  editor = await addMember(tp, owner.tenantId, 'member')
  contributor = await addMember(tp, owner.tenantId, 'contributor')
  const site = await tp.json('/v1/content/sites', { token: owner.token, body: { name: 'Newsroom' } })
  siteId = site.body.id
})
afterAll(() => tp.close())

async function draft(token: string, title = 'Draft') {
  const res = await tp.json('/v1/content/articles', { token, body: { site_id: siteId, title, body: 'text' } })
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return res.body as {
    id: string
    title: string
    slug: string
    status: string
    review_requested_at: string | null
  }
}
const post = (path: string, token: string, body?: unknown) =>
  tp.json(`/v1/content/articles/${path}`, { token, ...(body !== undefined ? { body } : { method: 'POST' }) })
const refused = (res: { status: number; body: { code?: string } }) => [res.status, res.body.code]
const FORBIDDEN = [403, 'INSUFFICIENT_PERMISSIONS']
const contributorClaims = () => ({
  sub: contributor.userId,
  role: 'authenticated' as const,
  app_metadata: { tenant_id: owner.tenantId },
})
const editorClaims = () => ({
  sub: editor.userId,
  role: 'authenticated' as const,
  app_metadata: { tenant_id: owner.tenantId },
})
/** review_requested_at as the read by slug and the article's item of GET /v1/content report it, per token. */
async function reviewInReads(article: { id: string; slug: string }, tokens: string[]) {
  const seen: { by_slug: unknown; listed: unknown }[] = []
  for (const token of tokens) {
    const bySlug = await tp.json(`/v1/content/sites/${siteId}/articles/${article.slug}`, { token })
    expect(bySlug.status, JSON.stringify(bySlug.body)).toBe(200)
    const list = await tp.json(`/v1/content?site_id=${siteId}&limit=100`, { token })
    expect(list.status, JSON.stringify(list.body)).toBe(200)
    const items = list.body.data as { object: string; id: string; review_requested_at?: string | null }[]
    // Sites have no review: their items do not carry the field.
    expect(items.find((i) => i.object === 'site')).not.toHaveProperty('review_requested_at')
    const item = items.find((i) => i.id === article.id)
    expect(item).toHaveProperty('review_requested_at')
    seen.push({ by_slug: bySlug.body.review_requested_at, listed: item!.review_requested_at })
  }
  return seen
}

/** The ids GET /v1/content?review=requested lists in the site (to an editor). */
async function waitingForReview() {
  const list = await tp.json(`/v1/content?site_id=${siteId}&review=requested&limit=100`, {
    token: owner.token,
  })
  expect(list.status, JSON.stringify(list.body)).toBe(200)
  return (list.body.data as { id: string }[]).map((i) => i.id)
}

describe('a contributor', () => {
  it('writes and edits its own draft, and submits it for review, which an admin sees and publishing clears', async () => {
    const mine = await draft(contributor.token, 'My piece')
    expect(mine).toMatchObject({ status: 'draft', review_requested_at: null })
    const edited = await tp.json(`/v1/content/articles/${mine.id}`, {
      method: 'PATCH',
      token: contributor.token,
      body: { title: 'My piece, edited' },
    })
    expect(edited.status, JSON.stringify(edited.body)).toBe(200)

    const submitted = await post(`${mine.id}/submit`, contributor.token)
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(200)
    expect(submitted.body.review_requested_at).toEqual(expect.any(String))
    const events = (await outbox(tp, owner.tenantId)).filter(
      (e) => e.type === 'content.updated' && (e.data as { article_id: string }).article_id === mine.id,
    )
    expect(events.at(-1)!.data).toMatchObject({ change: 'updated', changed_fields: ['review_requested_at'] })
    // Submitting again changes nothing.
    const again = await post(`${mine.id}/submit`, contributor.token)
    expect(again.body.review_requested_at).toBe(submitted.body.review_requested_at)

    const seen = await tp.json(`/v1/content/articles/${mine.id}`, { token: owner.token })
    expect(seen.body).toMatchObject({
      title: 'My piece, edited',
      review_requested_at: submitted.body.review_requested_at,
    })
    // The read by slug and the list report it too, to an editor and to the contributor.
    const waiting = {
      by_slug: submitted.body.review_requested_at,
      listed: submitted.body.review_requested_at,
    }
    expect(await reviewInReads(mine, [owner.token, contributor.token])).toEqual([waiting, waiting])
    // review=requested lists the drafts that wait for review: this one, and no site.
    expect(await waitingForReview()).toEqual([mine.id])

    expect(refused(await post(`${mine.id}/publish`, contributor.token))).toEqual(FORBIDDEN)
    const published = await post(`${mine.id}/publish`, editor.token)
    expect(published.status).toBe(200)
    expect(published.body).toMatchObject({ status: 'published', review_requested_at: null })
    const cleared = { by_slug: null, listed: null }
    expect(await reviewInReads(mine, [owner.token, contributor.token])).toEqual([cleared, cleared])
    expect(await waitingForReview()).toEqual([])
    // A published article is no longer the contributor's to change or submit.
    const late = await tp.json(`/v1/content/articles/${mine.id}`, {
      method: 'PATCH',
      token: contributor.token,
      body: { title: 'Sneaky' },
    })
    expect(refused(late)).toEqual(FORBIDDEN)
    expect(
      refused(
        await tp.json(`/v1/content/articles/${mine.id}`, { method: 'DELETE', token: contributor.token }),
      ),
    ).toEqual(FORBIDDEN)
    expect((await post(`${mine.id}/submit`, contributor.token)).status).toBe(409)
  })

  it('cannot publish, schedule or unpublish, nor edit, delete or restore others’ articles (403)', async () => {
    const mine = await draft(contributor.token)
    const theirs = await draft(editor.token, 'The editor’s')
    const future = new Date(Date.now() + 86_400_000).toISOString()
    expect(refused(await post(`${mine.id}/schedule`, contributor.token, { publish_at: future }))).toEqual(
      FORBIDDEN,
    )
    expect(refused(await post(`${mine.id}/unpublish`, contributor.token))).toEqual(FORBIDDEN)
    expect(refused(await post(`${theirs.id}/publish`, contributor.token))).toEqual(FORBIDDEN)
    expect(refused(await post(`${theirs.id}/submit`, contributor.token))).toEqual(FORBIDDEN)
    const edit = await tp.json(`/v1/content/articles/${theirs.id}`, {
      method: 'PATCH',
      token: contributor.token,
      body: { title: 'Taken over' },
    })
    expect(refused(edit)).toEqual(FORBIDDEN)
    expect(
      refused(
        await tp.json(`/v1/content/articles/${theirs.id}`, { method: 'DELETE', token: contributor.token }),
      ),
    ).toEqual(FORBIDDEN)
    const revisions = await tp.json(`/v1/content/articles/${theirs.id}/revisions`, {
      token: contributor.token,
    })
    const restore = await tp.json(
      `/v1/content/articles/${theirs.id}/revisions/${revisions.body.data[0].id}/restore`,
      {
        method: 'POST',
        token: contributor.token,
      },
    )
    expect(refused(restore)).toEqual(FORBIDDEN)
    // Nor write someone else's name on its own work, nor manage the tenant's tags and sites.
    const ghost = await tp.json('/v1/content/articles', {
      token: contributor.token,
      body: { site_id: siteId, title: 'Ghost', body: '', author_id: editor.userId },
    })
    expect(refused(ghost)).toEqual(FORBIDDEN)
    expect(
      refused(await tp.json('/v1/content/tags', { token: contributor.token, body: { name: 'Mine' } })),
    ).toEqual(FORBIDDEN)
    // It still reads the tenant's content, and deletes its own draft.
    expect(
      (await tp.json(`/v1/content/articles/${theirs.id}`, { token: contributor.token })).body.title,
    ).toBe('The editor’s')
    expect(
      (await tp.json(`/v1/content/articles/${mine.id}`, { method: 'DELETE', token: contributor.token }))
        .status,
    ).toBe(204)
    const [row] = await tp.db.sql`select title from public.articles where id = ${theirs.id}`
    expect(row!.title).toBe('The editor’s')
  })

  it('is refused by row-level security when it writes directly as itself', async () => {
    const mine = await draft(contributor.token)
    const theirs = await draft(editor.token, 'Untouched')
    const asContributor = <T>(fn: Parameters<typeof withTenant<T>>[2]) =>
      withTenant(tp.db.sql, contributorClaims(), fn)
    const sqlState = (p: Promise<unknown>) =>
      p.then(
        () => null,
        (e: { code?: string }) => e.code,
      )

    // Another's article: no row to update or delete.
    const updated = await asContributor(
      (tx) => tx`update public.articles set title = 'Taken' where id = ${theirs.id}`,
    )
    expect(updated.count).toBe(0)
    const deleted = await asContributor((tx) => tx`delete from public.articles where id = ${theirs.id}`)
    expect(deleted.count).toBe(0)
    // Its own draft: editable, but never to published, scheduled, or another author.
    const own = await asContributor(
      (tx) => tx`update public.articles set title = 'Mine' where id = ${mine.id}`,
    )
    expect(own.count).toBe(1)
    expect(
      await sqlState(
        asContributor(
          (tx) =>
            tx`update public.articles set status = 'published', published_at = now() where id = ${mine.id}`,
        ),
      ),
    ).toBe('42501')
    expect(
      await sqlState(
        asContributor(
          (tx) => tx`update public.articles set author_id = ${editor.userId} where id = ${mine.id}`,
        ),
      ),
    ).toBe('42501')
    expect(
      await sqlState(
        asContributor(
          (tx) =>
            tx`insert into public.tags (tenant_id, name, slug) values (${owner.tenantId}, 'Direct', 'direct')`,
        ),
      ),
    ).toBe('42501')
    const [row] = await tp.db.sql`select title, status from public.articles where id = ${theirs.id}`
    expect(row).toEqual({ title: 'Untouched', status: 'draft' })

    // The same statement as an editor goes through: the policies single out contributors.
    const byEditor = await withTenant(
      tp.db.sql,
      editorClaims(),
      async (tx) =>
        await tx`update public.articles set title = 'Edited by the editor' where id = ${theirs.id}`,
    )
    expect(byEditor.count).toBe(1)
  })

  it('cannot take a live article’s old slug, over HTTP or in SQL; an editor releases it by giving it to an article', async () => {
    const reader = await tp.json('/api/api-keys', {
      token: owner.token,
      body: {
        name: 'reader',
        environment: 'production',
        rate_limit_per_minute: 1000,
        scopes: ['content:read'],
        published_only: true,
      },
    })
    expect(reader.status, JSON.stringify(reader.body)).toBe(201)
    const readerKey = reader.body.key as string
    const bySlug = (slug: string) =>
      fetch(`${tp.baseUrl}/v1/content/sites/${siteId}/articles/${slug}`, {
        headers: { authorization: `Bearer ${readerKey}` },
        redirect: 'manual',
      }).then(async (r) => ({ status: r.status, body: await r.json() }))

    // An editor renames a published article: its old slug answers 301.
    const live = await draft(editor.token, 'Old Headline')
    expect((await post(`${live.id}/publish`, editor.token)).status).toBe(200)
    const renamed = await tp.json(`/v1/content/articles/${live.id}`, {
      method: 'PATCH',
      token: editor.token,
      body: { slug: 'new-headline' },
    })
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200)
    expect(await bySlug('old-headline')).toEqual({
      status: 301,
      body: { redirect_to: 'new-headline', article_id: live.id },
    })

    // A contributor's draft cannot take it: by PATCH, by creating with it, nor by its title.
    const mine = await draft(contributor.token, 'Mine')
    const taken = await tp.json(`/v1/content/articles/${mine.id}`, {
      method: 'PATCH',
      token: contributor.token,
      body: { slug: 'old-headline' },
    })
    expect(refused(taken), JSON.stringify(taken.body)).toEqual([409, 'CONFLICT'])
    expect(taken.body.message).toContain('reserved')
    expect(taken.body.details).toEqual([
      { field: 'slug', message: `reserved for the article "${live.title}" (${live.id})` },
    ])
    const created = await tp.json('/v1/content/articles', {
      token: contributor.token,
      body: { site_id: siteId, title: 'Mine too', slug: 'old-headline' },
    })
    expect(refused(created)).toEqual([409, 'CONFLICT'])
    expect((await draft(contributor.token, 'Old Headline')).slug).toBe('old-headline-2')
    expect(await bySlug('old-headline')).toMatchObject({ status: 301 })

    // In SQL with the contributor's claims (as the Data API runs it): nothing moves.
    const asContributor = <T>(fn: Parameters<typeof withTenant<T>>[2]) =>
      withTenant(tp.db.sql, contributorClaims(), fn)
    const sqlState = (p: Promise<unknown>) =>
      p.then(
        () => null,
        (e: { code?: string }) => e.code,
      )
    const removed = await asContributor(
      (tx) => tx`delete from public.article_slug_redirects where article_id = ${live.id}`,
    )
    expect(removed.count).toBe(0)
    const moved = await asContributor(
      (tx) =>
        tx`update public.article_slug_redirects set article_id = ${mine.id} where article_id = ${live.id}`,
    )
    expect(moved.count).toBe(0)
    const theirs = await draft(editor.token, 'Theirs')
    expect(
      await sqlState(
        asContributor(
          (tx) => tx`
            insert into public.article_slug_redirects (tenant_id, site_id, slug, article_id)
            values (${owner.tenantId}, ${siteId}, 'pointed-elsewhere', ${theirs.id})`,
        ),
      ),
    ).toBe('42501')
    expect(
      await sqlState(
        asContributor((tx) => tx`update public.articles set slug = 'old-headline' where id = ${mine.id}`),
      ),
    ).toBe('42501')
    expect(await bySlug('old-headline')).toMatchObject({ status: 301 })

    // The editor releases it by giving the slug to the contributor's draft: the redirect goes, the
    // old link finds nothing while it is a draft and the new article once it is published.
    const released = await tp.json(`/v1/content/articles/${mine.id}`, {
      method: 'PATCH',
      token: editor.token,
      body: { slug: 'old-headline' },
    })
    expect(released.status, JSON.stringify(released.body)).toBe(200)
    expect((await bySlug('old-headline')).status).toBe(404)
    expect((await post(`${mine.id}/publish`, editor.token)).status).toBe(200)
    expect(await bySlug('old-headline')).toMatchObject({ status: 200, body: { id: mine.id } })
  })

  it('is a role invitations and role changes accept', async () => {
    const invitee = await createLoneUser(tp)
    const inv = await tp.json('/api/invitations', {
      token: owner.token,
      body: { email: invitee.email, role: 'contributor' },
    })
    expect(inv.status, JSON.stringify(inv.body)).toBe(201)
    expect(inv.body.role).toBe('contributor')
    const demoted = await tp.json(`/api/tenants/current/members/${editor.userId}`, {
      method: 'PATCH',
      token: owner.token,
      body: { role: 'contributor' },
    })
    expect(demoted.status, JSON.stringify(demoted.body)).toBe(200)
    expect(demoted.body.role).toBe('contributor')
    const members = await tp.json('/api/tenants/current/members', { token: owner.token })
    expect(members.body.data.find((m: { user_id: string }) => m.user_id === editor.userId).role).toBe(
      'contributor',
    )
    const back = await tp.json(`/api/tenants/current/members/${editor.userId}`, {
      method: 'PATCH',
      token: owner.token,
      body: { role: 'member' },
    })
    expect(back.status).toBe(200)
  })
})
