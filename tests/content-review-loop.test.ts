import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addMember, startTestPlatform, type TestPlatform, type TestTenant } from './support/platform.ts'

/**
 * Review as a loop (docs/adr/0046-review-loop-and-newsroom-navigation.md), over real HTTP: a
 * submitted draft e-mails the tenant's editors (not the writer, not another tenant's), an editor
 * returns it with a note the writer reads on the article and is e-mailed, submitting again clears
 * the note; a contributor cannot return, and bad input or a draft not waiting changes nothing.
 */

let tp: TestPlatform
let owner: TestTenant
let editor: TestTenant
let contributor: TestTenant
let stranger: TestTenant
let siteId: string

beforeAll(async () => {
  tp = await startTestPlatform()
  owner = await tp.createTenant()
  await tp.db.sql`update public.tenants set plan = 'pro' where id = ${owner.tenantId}`
  editor = await addMember(tp, owner.tenantId, 'member')
  contributor = await addMember(tp, owner.tenantId, 'contributor')
  stranger = await tp.createTenant()
  const site = await tp.json('/v1/content/sites', { token: owner.token, body: { name: 'Newsroom' } })
  siteId = site.body.id
})
afterAll(() => tp.close())

async function draft(token: string, title: string) {
  const res = await tp.json('/v1/content/articles', { token, body: { site_id: siteId, title, body: 'text' } })
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return res.body as { id: string }
}
const post = (path: string, token: string, body?: unknown) =>
  tp.json(`/v1/content/articles/${path}`, { token, ...(body !== undefined ? { body } : { method: 'POST' }) })
const mails = (kind: string, articleId: string) =>
  tp.db.sql<{ recipient: string; subject: string; body: string; tenant_id: string }[]>`
    select recipient, subject, body, tenant_id from public.notifications
    where kind = ${kind} and body like ${`%${articleId}%`} order by recipient`
const emailOf = async (t: TestTenant) =>
  (await tp.db.sql<{ email: string }[]>`select email from auth.users where id = ${t.userId}`)[0]!.email

describe('review as a loop', () => {
  it("e-mails the tenant's editors but the writer when a draft is submitted, once per submission", async () => {
    const piece = await draft(contributor.token, 'Harbour report')
    expect((await post(`${piece.id}/submit`, contributor.token)).status).toBe(200)
    // Submitting again changes nothing: no second e-mail.
    expect((await post(`${piece.id}/submit`, contributor.token)).status).toBe(200)
    const sent = await mails('content.review_requested', piece.id)
    expect(sent.map((m) => m.recipient).sort()).toEqual([await emailOf(owner), await emailOf(editor)].sort())
    expect(sent.map((m) => m.recipient)).not.toContain(await emailOf(contributor))
    expect(sent.map((m) => m.recipient)).not.toContain(await emailOf(stranger))
    expect(sent[0]).toMatchObject({
      subject: 'Waiting for your review: Harbour report',
      tenant_id: owner.tenantId,
    })
    expect(sent[0]!.body).toContain(`#/articles/${piece.id}`)
  })

  it('returns a submitted draft to its writer with a note, which the writer reads and resubmitting clears', async () => {
    const piece = await draft(contributor.token, 'Council vote')
    await post(`${piece.id}/submit`, contributor.token)
    const returned = await post(`${piece.id}/return`, editor.token, { note: '  Name the councillors.  ' })
    expect(returned.status, JSON.stringify(returned.body)).toBe(200)
    expect(returned.body).toMatchObject({
      status: 'draft',
      review_requested_at: null,
      review_return: {
        note: 'Name the councillors.',
        returned_by: editor.userId,
        returned_at: expect.any(String),
      },
    })
    // The writer reads it on the article, and is told by e-mail.
    const seen = await tp.json(`/v1/content/articles/${piece.id}`, { token: contributor.token })
    expect(seen.body.review_return).toEqual(returned.body.review_return)
    const told = await mails('content.review_returned', piece.id)
    expect(told).toEqual([
      expect.objectContaining({
        recipient: await emailOf(contributor),
        subject: 'Returned with a note: Council vote',
      }),
    ])
    expect(told[0]!.body).toContain('Name the councillors.')
    // It left the review queue.
    const waiting = await tp.json(`/v1/content?site_id=${siteId}&review=requested&limit=100`, {
      token: editor.token,
    })
    expect((waiting.body.data as { id: string }[]).map((i) => i.id)).not.toContain(piece.id)
    // Submitting again answers the note: it is cleared, and the editors are told again.
    const again = await post(`${piece.id}/submit`, contributor.token)
    expect(again.body).toMatchObject({ review_return: null, review_requested_at: expect.any(String) })
    expect((await mails('content.review_requested', piece.id)).length).toBe(4)
  })

  it('refuses a contributor, a draft not waiting for review and a bad note, changing nothing', async () => {
    const piece = await draft(contributor.token, 'Tide tables')
    // Not submitted: nothing to return.
    const early = await post(`${piece.id}/return`, editor.token, { note: 'Too soon' })
    expect([early.status, early.body.code]).toEqual([409, 'CONFLICT'])
    await post(`${piece.id}/submit`, contributor.token)
    const own = await post(`${piece.id}/return`, contributor.token, { note: 'Returning my own' })
    expect([own.status, own.body.code]).toEqual([403, 'INSUFFICIENT_PERMISSIONS'])
    for (const body of [{}, { note: '   ' }, { note: 'x'.repeat(2001) }, { note: 'ok', extra: 1 }]) {
      const bad = await post(`${piece.id}/return`, editor.token, body)
      expect([bad.status, bad.body.code], JSON.stringify(body)).toEqual([400, 'VALIDATION_ERROR'])
    }
    const other = await post(`${piece.id}/return`, stranger.token, { note: 'Not mine' })
    expect(other.status).toBe(404)
    const still = await tp.json(`/v1/content/articles/${piece.id}`, { token: editor.token })
    expect(still.body).toMatchObject({ review_requested_at: expect.any(String), review_return: null })
    expect(await mails('content.review_returned', piece.id)).toEqual([])
  })

  it('clears the note when an editor publishes the returned draft', async () => {
    const piece = await draft(contributor.token, 'Ferry timetable')
    await post(`${piece.id}/submit`, contributor.token)
    await post(`${piece.id}/return`, owner.token, { note: 'Check the times.' })
    const published = await post(`${piece.id}/publish`, owner.token)
    expect(published.body).toMatchObject({ status: 'published', review_return: null })
  })
})
