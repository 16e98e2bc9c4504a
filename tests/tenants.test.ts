import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ChangePlanResponse } from '../functions/tenants/routes/admin/change-plan.ts'
import type { GetCurrentTenantResponse } from '../functions/tenants/routes/current/get.ts'
import type { UpdateCurrentTenantResponse } from '../functions/tenants/routes/current/update.ts'
import type { AcceptInvitationResponse } from '../functions/tenants/routes/invitations/accept.ts'
import type { CreateInvitationResponse } from '../functions/tenants/routes/invitations/create.ts'
import type { ListInvitationsResponse } from '../functions/tenants/routes/invitations/list.ts'
import type { PreviewInvitationResponse } from '../functions/tenants/routes/invitations/preview.ts'
import type { RevokeInvitationResponse } from '../functions/tenants/routes/invitations/revoke.ts'
import type { ListMembersResponse } from '../functions/tenants/routes/members/list.ts'
import type { UpdateMemberResponse } from '../functions/tenants/routes/members/update.ts'
import type { CreateTenantResponse } from '../functions/tenants/routes/tenants/create.ts'
import type { ListTenantsResponse } from '../functions/tenants/routes/tenants/list.ts'
import type { SwitchTenantResponse } from '../functions/tenants/routes/tenants/switch.ts'
import { withTenant } from '../shared/infra/db.ts'
import { needsRealConcurrency } from './support/concurrency.ts'
import {
  addMember,
  startTestPlatform,
  TestClock,
  type TestPlatform,
  type TestTenant,
} from './support/platform.ts'
import { createLoneUser, hookTenantId, outbox, refreshedToken } from './support/tenancy.ts'

let tp: TestPlatform
let a: TestTenant
let b: TestTenant
const clock = new TestClock(new Date('2026-11-21T12:00:30.000Z'))

beforeAll(async () => {
  tp = await startTestPlatform({ instances: 2, clock })
  a = await tp.createTenant()
  b = await tp.createTenant()
})
afterAll(() => tp.close())

const count = async (table: string) =>
  (await tp.db.sql<{ n: number }[]>`select count(*)::int as n from ${tp.db.sql(table)}`)[0]!.n

/** Invites `email` into the tenant of `inviter` and returns the token from the e-mail. */
async function invite(inviter: TestTenant, email: string, role = 'member') {
  const res = await tp.json<CreateInvitationResponse>('/api/invitations', {
    token: inviter.token,
    body: { email, role },
  })
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  const [mail] = await tp.db.sql<{ body: string }[]>`
    select body from public.notifications where kind = 'user.invited' and dedupe_key = ${`invitation:${res.body.id}`}`
  const token = mail!.body.match(/invitation\/(inv_[0-9A-Za-z]{32})/)![1]!
  return { invitation: res.body, token, mail: mail!.body }
}

describe('sign-up', () => {
  it('lets a signed-in user without a tenant create one, as owner; tenant.created once; the hook makes it active', async () => {
    const user = await createLoneUser(tp)
    expect(await hookTenantId(tp, user.userId)).toBeUndefined()
    // Without a tenant the user cannot use tenant APIs yet.
    expect((await tp.json('/api/tenants/current', { token: user.token })).status).toBe(403)
    const res = await tp.json<CreateTenantResponse>('/api/tenants', {
      token: user.token,
      body: { name: 'Acme Media' },
    })
    expect(res.status, JSON.stringify(res.body)).toBe(201)
    expect(res.body).toMatchObject({ name: 'Acme Media', plan: 'free', role: 'owner', settings: {} })
    const events = await outbox(tp, res.body.id)
    expect(events.map((e) => e.type)).toEqual(['tenant.created'])
    expect(events[0]!.data).toEqual({
      tenant_id: res.body.id,
      name: 'Acme Media',
      plan: 'free',
      owner_user_id: user.userId,
    })
    const refreshed = await refreshedToken(tp, user)
    expect(refreshed.tenantId).toBe(res.body.id)
    const current = await tp.json<GetCurrentTenantResponse>('/api/tenants/current', {
      token: refreshed.token,
    })
    expect(current.body).toMatchObject({ id: res.body.id, role: 'owner', active: true })
  })

  it.each([
    ['invalid plan', { name: 'x', plan: 'gold' }, 'plan'],
    ['empty name', { name: '' }, 'name'],
    ['long name', { name: 'x'.repeat(201) }, 'name'],
    ['unknown field', { name: 'x', owner: 'me' }, '(body)'],
  ])('refuses %s with 400 and creates nothing', async (_n, body, field) => {
    const user = await createLoneUser(tp)
    const before = await count('tenants')
    const res = await tp.json('/api/tenants', { token: user.token, body })
    expect(res.status).toBe(400)
    expect(res.body).toMatchObject({ error: 'Bad Request', code: 'VALIDATION_ERROR' })
    expect(res.body.details.map((d: { field: string }) => d.field)).toContain(field)
    expect(await count('tenants')).toBe(before)
  })

  it('refuses sign-up without credentials', async () => {
    expect((await tp.json('/api/tenants', { body: { name: 'x' } })).status).toBe(401)
  })
})

describe('tenant settings and plan', () => {
  it('changes settings with one tenant.updated; an unchanged value writes no event', async () => {
    const t = await tp.createTenant()
    const res = await tp.json<UpdateCurrentTenantResponse>('/api/tenants/current', {
      method: 'PATCH',
      token: t.token,
      body: { name: 'Renamed', settings: { locale: 'de' } },
    })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(res.body).toMatchObject({ plan: 'free', name: 'Renamed', settings: { locale: 'de' } })
    const same = await tp.json('/api/tenants/current', {
      method: 'PATCH',
      token: t.token,
      body: { settings: { locale: 'de' } },
    })
    expect(same.status).toBe(200)
    const events = (await outbox(tp, t.tenantId)).filter((e) => e.type === 'tenant.updated')
    expect(events).toHaveLength(1)
    expect(events[0]!.data).toMatchObject({
      tenant_id: t.tenantId,
      plan: 'free',
      changed: ['name', 'settings'],
      updated_by: t.userId,
    })
  })

  it('refuses an invalid plan (400) and every user plan change (403), owners included, changing nothing', async () => {
    const t = await tp.createTenant()
    const bad = await tp.json('/api/tenants/current', {
      method: 'PATCH',
      token: t.token,
      body: { plan: 'platinum' },
    })
    expect(bad.status).toBe(400)
    expect(bad.body.details[0].field).toBe('plan')
    expect(
      (await tp.json('/api/tenants/current', { method: 'PATCH', token: t.token, body: {} })).status,
    ).toBe(400)
    const admin = await addMember(tp, t.tenantId, 'admin')
    for (const who of [t, admin]) {
      const denied = await tp.json('/api/tenants/current', {
        method: 'PATCH',
        token: who.token,
        body: { plan: 'enterprise', name: 'Sneaky' },
      })
      expect(denied.status).toBe(403)
      expect(denied.body).toMatchObject({ error: 'Forbidden', code: 'INSUFFICIENT_PERMISSIONS' })
    }
    const member = await addMember(tp, t.tenantId, 'member')
    expect(
      (await tp.json('/api/tenants/current', { method: 'PATCH', token: member.token, body: { name: 'n' } }))
        .status,
    ).toBe(403)
    expect(
      (
        await tp.json('/api/tenants/current', {
          method: 'PATCH',
          token: admin.token,
          body: { name: 'Renamed' },
        })
      ).status,
    ).toBe(200)
    const [row] = await tp.db.sql`select plan, name from public.tenants where id = ${t.tenantId}`
    expect(row).toEqual({ plan: 'free', name: 'Renamed' })
    expect((await outbox(tp, t.tenantId)).filter((e) => e.type === 'tenant.updated')).toHaveLength(1)
  })

  it('refuses the owner a plan change through the Data API too (no column privilege), changing nothing', async () => {
    const t = await tp.createTenant()
    const err = await withTenant(
      tp.db.sql,
      { sub: t.userId, role: 'authenticated', app_metadata: { tenant_id: t.tenantId } },
      (tx) => tx`update public.tenants set plan = 'enterprise' where id = ${t.tenantId}`,
    ).then(
      () => null,
      (e: { code?: string }) => e.code,
    )
    expect(err).toBe('42501')
    const [row] = await tp.db.sql`select plan from public.tenants where id = ${t.tenantId}`
    expect(row!.plan).toBe('free')
  })

  it('starts new tenants on Free: a sign-up asking for another plan is refused (403) and creates nothing', async () => {
    const user = await createLoneUser(tp)
    const before = await count('tenants')
    const res = await tp.json('/api/tenants', {
      token: user.token,
      body: { name: 'Free lunch', plan: 'enterprise' },
    })
    expect(res.status).toBe(403)
    expect(res.body).toMatchObject({ code: 'INSUFFICIENT_PERMISSIONS' })
    expect(await count('tenants')).toBe(before)
    // Nor through the sign-up function directly, as the Data API could call it.
    const err = await withTenant(
      tp.db.sql,
      { sub: user.userId, role: 'authenticated', app_metadata: {} } as never,
      (tx) => tx`select private.create_tenant('Direct', 'enterprise')`,
    ).then(
      () => null,
      (e: { code?: string }) => e.code,
    )
    expect(err).toBe('42501')
    expect(await count('tenants')).toBe(before)
    const ok = await tp.json('/api/tenants', { token: user.token, body: { name: 'Honest', plan: 'free' } })
    expect(ok.status).toBe(201)
    expect(ok.body.plan).toBe('free')
  })

  it('refuses sign-up with a valid token whose subject is not a user (403, not 500)', async () => {
    const before = await count('tenants')
    const token = await tp.tokenFor({ userId: crypto.randomUUID(), email: 'ghost@example.com' })
    const res = await tp.json('/api/tenants', { token, body: { name: 'Ghost' } })
    expect(res.status).toBe(403)
    expect(res.body).toMatchObject({ error: 'Forbidden', code: 'INSUFFICIENT_PERMISSIONS' })
    expect(await count('tenants')).toBe(before)
  })

  it('lets only the service role change a plan (billing), with one tenant.updated', async () => {
    const t = await tp.createTenant()
    const path = `/functions/v1/tenants/admin/tenants/${t.tenantId}/plan`
    // A user's token is not a credential this route takes (as on every service-only route).
    expect((await tp.json(path, { token: t.token, body: { plan: 'pro' } })).status).toBe(401)
    expect((await tp.json(path, { body: { plan: 'pro' } })).status).toBe(401)
    expect((await tp.db.sql`select plan from public.tenants where id = ${t.tenantId}`)[0]!.plan).toBe('free')
    const res = await tp.json<ChangePlanResponse>(path, {
      headers: { apikey: tp.serviceRoleKey },
      body: { plan: 'pro' },
    })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(res.body).toMatchObject({ id: t.tenantId, plan: 'pro', previous_plan: 'free' })
    const again = await tp.json(path, { headers: { apikey: tp.serviceRoleKey }, body: { plan: 'pro' } })
    expect(again.status).toBe(200)
    const events = (await outbox(tp, t.tenantId)).filter((e) => e.type === 'tenant.updated')
    expect(events.map((e) => e.data)).toEqual([
      expect.objectContaining({
        plan: 'pro',
        changed: ['plan'],
        previous: { plan: 'free' },
        updated_by: null,
      }),
    ])
    const [row] = await tp.db.sql`select plan from public.tenants where id = ${t.tenantId}`
    expect(row!.plan).toBe('pro')
    const missing = await tp.json(`/functions/v1/tenants/admin/tenants/${crypto.randomUUID()}/plan`, {
      headers: { apikey: tp.serviceRoleKey },
      body: { plan: 'pro' },
    })
    expect(missing.status).toBe(404)
  })
})

describe('invitations', () => {
  it('e-mails a single-use link; accepting makes the user a member (user.joined once) who can then use the tenant', async () => {
    const t = await tp.createTenant()
    const invitee = await createLoneUser(tp)
    const { invitation, token, mail } = await invite(t, invitee.email, 'admin')
    expect(invitation).toMatchObject({
      email: invitee.email,
      role: 'admin',
      status: 'pending',
      invited_by: t.userId,
    })
    // The link opens the dashboard's invitation page, the token in the fragment.
    const dashboard = new URL(tp.instances[0]!.platform.deps.config.DASHBOARD_URL).href
    expect(mail).toContain(`${dashboard}#/invitation/${token}`)
    // Stored only as a hash.
    const stored = await tp.db.sql`select * from public.invitations where id = ${invitation.id}`
    expect(JSON.stringify(stored)).not.toContain(token)
    const invited = (await outbox(tp, t.tenantId)).filter((e) => e.type === 'user.invited')
    expect(invited).toHaveLength(1)
    expect(invited[0]!.data).toEqual({
      invitation_id: invitation.id,
      email: invitee.email,
      role: 'admin',
      invited_by: t.userId,
      expires_at: invitation.expires_at,
    })

    // Not a member yet: a token naming the tenant is refused.
    const early = await tp.tokenFor({ userId: invitee.userId, email: invitee.email, tenantId: t.tenantId })
    expect((await tp.json('/v1/content', { token: early })).status).toBe(403)
    expect((await tp.json('/api/tenants/current/members', { token: early })).status).toBe(403)

    const preview = await tp.json<PreviewInvitationResponse>(`/api/invitations/accept?token=${token}`)
    // Public, so charged to the caller's address (the anonymous limit); accepting is charged to the user.
    expect(preview.headers.get('x-ratelimit-limit')).toBe('60')
    expect(preview.body).toMatchObject({
      tenant_name: expect.any(String),
      email: invitee.email,
      role: 'admin',
      status: 'pending',
    })

    const accepted = await tp.json<AcceptInvitationResponse>('/api/invitations/accept', {
      token: invitee.token,
      body: { token },
    })
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200)
    expect(accepted.headers.get('x-ratelimit-limit')).toBe('1000')
    expect(accepted.body).toEqual({ tenant_id: t.tenantId, role: 'admin', refresh_session: true })
    const joined = (await outbox(tp, t.tenantId)).filter((e) => e.type === 'user.joined')
    expect(joined).toHaveLength(1)
    expect(joined[0]!.data).toEqual({
      user_id: invitee.userId,
      email: invitee.email,
      role: 'admin',
      invitation_id: invitation.id,
    })

    const { tenantId, token: session } = await refreshedToken(tp, invitee)
    expect(tenantId).toBe(t.tenantId)
    expect((await tp.json('/v1/content', { token: session })).status).toBe(200)
    const members = await tp.json<ListMembersResponse>('/api/tenants/current/members', { token: session })
    expect(members.body.data.map((m) => [m.email, m.role])).toEqual(
      expect.arrayContaining([[invitee.email, 'admin']]),
    )

    // Single use.
    const again = await tp.json('/api/invitations/accept', { token: invitee.token, body: { token } })
    expect(again.status).toBe(409)
    expect(again.body.code).toBe('CONFLICT')
    const list = await tp.json<ListInvitationsResponse>('/api/invitations', { token: t.token })
    expect(list.body.data.find((i) => i.id === invitation.id)!.status).toBe('accepted')
  })

  it('refuses an expired invitation (422) and changes nothing', async () => {
    const t = await tp.createTenant()
    const invitee = await createLoneUser(tp)
    const { token } = await invite(t, invitee.email)
    clock.advance(8 * 24 * 3600 * 1000)
    try {
      const res = await tp.json('/api/invitations/accept', { token: invitee.token, body: { token } })
      expect(res.status).toBe(422)
      expect(res.body).toMatchObject({ code: 'UNPROCESSABLE', message: expect.stringContaining('expired') })
    } finally {
      clock.advance(-8 * 24 * 3600 * 1000)
    }
    const [m] = await tp.db
      .sql`select count(*)::int as n from public.tenant_members where user_id = ${invitee.userId}`
    expect(m!.n).toBe(0)
    expect((await outbox(tp, t.tenantId)).filter((e) => e.type === 'user.joined')).toHaveLength(0)
  })

  it('refuses a user with another e-mail, an unknown token and a malformed token', async () => {
    const t = await tp.createTenant()
    const invitee = await createLoneUser(tp)
    const stranger = await createLoneUser(tp)
    const { token } = await invite(t, invitee.email)
    expect(
      (await tp.json('/api/invitations/accept', { token: stranger.token, body: { token } })).status,
    ).toBe(403)
    const unknown = await tp.json('/api/invitations/accept', {
      token: invitee.token,
      body: { token: `inv_${'a'.repeat(32)}` },
    })
    expect(unknown.status).toBe(404)
    const malformed = await tp.json('/api/invitations/accept', {
      token: invitee.token,
      body: { token: 'nope' },
    })
    expect(malformed.status).toBe(400)
    expect(malformed.body.details[0].field).toBe('token')
    // The invitation still works for the right user.
    expect((await tp.json('/api/invitations/accept', { token: invitee.token, body: { token } })).status).toBe(
      200,
    )
  })

  it('refuses to invite an existing member (409), writing no invitation, event or e-mail', async () => {
    const t = await tp.createTenant()
    const member = await addMember(tp, t.tenantId, 'member')
    const before = [
      await count('invitations'),
      await count('notifications'),
      (await outbox(tp, t.tenantId)).length,
    ]
    const res = await tp.json('/api/invitations', {
      token: t.token,
      body: { email: member.email.toUpperCase(), role: 'member' },
    })
    expect(res.status).toBe(409)
    expect(res.body.code).toBe('CONFLICT')
    expect([
      await count('invitations'),
      await count('notifications'),
      (await outbox(tp, t.tenantId)).length,
    ]).toEqual(before)
  })

  it.each([
    ['bad e-mail', { email: 'not-an-email' }, 'email'],
    ['bad role', { email: 'x@example.com', role: 'superuser' }, 'role'],
    ['unknown field', { email: 'x@example.com', note: 'hi' }, '(body)'],
  ])('refuses %s with 400', async (_n, body, field) => {
    const res = await tp.json('/api/invitations', { token: a.token, body })
    expect(res.status).toBe(400)
    expect(res.body.details.map((d: { field: string }) => d.field)).toContain(field)
  })

  it('lets only owners and admins invite, and only owners invite owners', async () => {
    const t = await tp.createTenant()
    const member = await addMember(tp, t.tenantId, 'member')
    const admin = await addMember(tp, t.tenantId, 'admin')
    expect(
      (await tp.json('/api/invitations', { token: member.token, body: { email: 'm@example.com' } })).status,
    ).toBe(403)
    expect(
      (
        await tp.json('/api/invitations', {
          token: admin.token,
          body: { email: 'o@example.com', role: 'owner' },
        })
      ).status,
    ).toBe(403)
    expect(
      (await tp.json('/api/invitations', { token: admin.token, body: { email: 'm@example.com' } })).status,
    ).toBe(201)
  })

  it('replaces an earlier link when inviting the same address again, and can revoke', async () => {
    const t = await tp.createTenant()
    const invitee = await createLoneUser(tp)
    const first = await invite(t, invitee.email)
    const second = await invite(t, invitee.email)
    expect(
      (await tp.json('/api/invitations/accept', { token: invitee.token, body: { token: first.token } }))
        .status,
    ).toBe(404)
    const revoked = await tp.json<RevokeInvitationResponse>(`/api/invitations/${second.invitation.id}`, {
      method: 'DELETE',
      token: t.token,
    })
    expect(revoked.body.status).toBe('revoked')
    expect(
      (await tp.json('/api/invitations/accept', { token: invitee.token, body: { token: second.token } }))
        .status,
    ).toBe(404)
  })
})

describe('members', () => {
  it('changes roles, keeps the last owner, lets members leave', async () => {
    const t = await tp.createTenant()
    const admin = await addMember(tp, t.tenantId, 'admin')
    const member = await addMember(tp, t.tenantId, 'member')
    // Admins cannot grant the owner role or touch owners.
    expect(
      (
        await tp.json(`/api/tenants/current/members/${member.userId}`, {
          method: 'PATCH',
          token: admin.token,
          body: { role: 'owner' },
        })
      ).status,
    ).toBe(403)
    expect(
      (await tp.json(`/api/tenants/current/members/${t.userId}`, { method: 'DELETE', token: admin.token }))
        .status,
    ).toBe(403)
    const promoted = await tp.json<UpdateMemberResponse>(`/api/tenants/current/members/${member.userId}`, {
      method: 'PATCH',
      token: admin.token,
      body: { role: 'admin' },
    })
    expect(promoted.body).toMatchObject({ user_id: member.userId, role: 'admin' })
    expect(
      (
        await tp.json(`/api/tenants/current/members/${member.userId}`, {
          method: 'PATCH',
          token: t.token,
          body: { role: 'x' },
        })
      ).status,
    ).toBe(400)
    // The only owner can neither be demoted nor removed, nor leave.
    const demote = await tp.json(`/api/tenants/current/members/${t.userId}`, {
      method: 'PATCH',
      token: t.token,
      body: { role: 'admin' },
    })
    expect(demote.status).toBe(409)
    expect(demote.body.message).toMatch(/owner/)
    expect(
      (await tp.json(`/api/tenants/current/members/${t.userId}`, { method: 'DELETE', token: t.token }))
        .status,
    ).toBe(409)
    // With a second owner the first may go.
    await tp.json(`/api/tenants/current/members/${admin.userId}`, {
      method: 'PATCH',
      token: t.token,
      body: { role: 'owner' },
    })
    expect(
      (await tp.json(`/api/tenants/current/members/${t.userId}`, { method: 'DELETE', token: t.token }))
        .status,
    ).toBe(204)
    // A member may leave; a member may not remove others.
    const other = await addMember(tp, t.tenantId, 'member')
    const third = await addMember(tp, t.tenantId, 'member')
    expect(
      (
        await tp.json(`/api/tenants/current/members/${third.userId}`, {
          method: 'DELETE',
          token: other.token,
        })
      ).status,
    ).toBe(403)
    expect(
      (
        await tp.json(`/api/tenants/current/members/${other.userId}`, {
          method: 'DELETE',
          token: other.token,
        })
      ).status,
    ).toBe(204)
    const left = await tp.json('/api/tenants/current', { token: other.token })
    expect(left.status).toBe(403)
  })

  it('never demotes the last two owners at once under concurrency', async (ctx) => {
    needsRealConcurrency(ctx)
    const t = await tp.createTenant()
    const second = await addMember(tp, t.tenantId, 'owner')
    const results = await Promise.all([
      tp.json(`/api/tenants/current/members/${second.userId}`, {
        method: 'PATCH',
        token: t.token,
        instance: 0,
        body: { role: 'admin' },
      }),
      tp.json(`/api/tenants/current/members/${t.userId}`, {
        method: 'PATCH',
        token: second.token,
        instance: 1,
        body: { role: 'admin' },
      }),
    ])
    // The loser is refused by the last-owner trigger (409) or, when it was already demoted by
    // the time it authenticated, as an admin touching an owner (403).
    const [winner, loser] = results.map((r) => r.status).sort()
    expect(winner).toBe(200)
    expect([403, 409]).toContain(loser)
    const [owners] = await tp.db
      .sql`select count(*)::int as n from public.tenant_members where tenant_id = ${t.tenantId} and role = 'owner'`
    expect(owners!.n).toBe(1)
  })
})

describe('row-level security backs the role rules (direct Data API writes as an admin)', () => {
  const asUser = <T>(u: TestTenant, fn: Parameters<typeof withTenant<T>>[2]) =>
    withTenant(
      tp.db.sql,
      { sub: u.userId, role: 'authenticated', app_metadata: { tenant_id: u.tenantId } },
      fn,
    )
  const refused = (p: Promise<unknown>) =>
    p.then(
      () => 'allowed',
      (err: { code?: string }) => err.code,
    )

  it('lets an admin neither take nor grant the owner role, nor remove an owner, nor change the plan', async () => {
    const t = await tp.createTenant()
    const admin = await addMember(tp, t.tenantId, 'admin')
    const member = await addMember(tp, t.tenantId, 'member')
    // Promote self or another to owner: refused by the policy's check.
    for (const target of [admin.userId, member.userId]) {
      expect(
        await refused(
          asUser(
            admin,
            (tx) => tx`update public.tenant_members set role = 'owner' where user_id = ${target}`,
          ),
        ),
      ).toBe('42501')
    }
    // Demote or remove the owner: the owner's row is not the admin's to change.
    const demoted = await asUser(
      admin,
      (tx) =>
        tx`update public.tenant_members set role = 'member' where user_id = ${t.userId} returning user_id`,
    )
    const removed = await asUser(
      admin,
      (tx) => tx`delete from public.tenant_members where user_id = ${t.userId} returning user_id`,
    )
    expect([demoted.length, removed.length]).toEqual([0, 0])
    // An owner invitation the admin could accept from a second account.
    expect(
      await refused(
        asUser(
          admin,
          (tx) => tx`insert into public.invitations (tenant_id, email, role, token_hash, expires_at)
                     values (${t.tenantId}, 'alt@example.com', 'owner', 'x', now() + interval '1 day')`,
        ),
      ),
    ).toBe('42501')
    // The plan (billing) is the owners'.
    expect(
      await refused(
        asUser(admin, (tx) => tx`update public.tenants set plan = 'enterprise' where id = ${t.tenantId}`),
      ),
    ).toBe('42501')
    const roles = await tp.db.sql<{ user_id: string; role: string }[]>`
      select user_id, role from public.tenant_members where tenant_id = ${t.tenantId} order by role`
    expect(Object.fromEntries(roles.map((r) => [r.user_id, r.role]))).toEqual({
      [t.userId]: 'owner',
      [admin.userId]: 'admin',
      [member.userId]: 'member',
    })
    const [tenant] = await tp.db.sql`select plan from public.tenants where id = ${t.tenantId}`
    expect(tenant!.plan).toBe('free')
    expect((await tp.db.sql`select 1 from public.invitations where tenant_id = ${t.tenantId}`).length).toBe(0)
  })

  it('still lets admins manage non-owners and owners do everything, directly', async () => {
    const t = await tp.createTenant()
    const admin = await addMember(tp, t.tenantId, 'admin')
    const member = await addMember(tp, t.tenantId, 'member')
    const other = await addMember(tp, t.tenantId, 'member')
    await asUser(
      admin,
      (tx) => tx`update public.tenant_members set role = 'admin' where user_id = ${member.userId}`,
    )
    await asUser(admin, (tx) => tx`delete from public.tenant_members where user_id = ${other.userId}`)
    await asUser(
      admin,
      (tx) => tx`insert into public.invitations (tenant_id, email, role, token_hash, expires_at)
                 values (${t.tenantId}, 'new@example.com', 'admin', ${`h-${t.tenantId}`}, now() + interval '1 day')`,
    )
    await asUser(
      t,
      (tx) => tx`update public.tenant_members set role = 'owner' where user_id = ${admin.userId}`,
    )
    await asUser(t, (tx) => tx`update public.tenants set name = 'Owned' where id = ${t.tenantId}`)
    // With a second owner, an owner may step down.
    await asUser(t, (tx) => tx`update public.tenant_members set role = 'admin' where user_id = ${t.userId}`)
    const roles = await tp.db.sql<{ user_id: string; role: string }[]>`
      select user_id, role from public.tenant_members where tenant_id = ${t.tenantId}`
    expect(Object.fromEntries(roles.map((r) => [r.user_id, r.role]))).toEqual({
      [t.userId]: 'admin',
      [admin.userId]: 'owner',
      [member.userId]: 'admin',
    })
    // The plan is billing's, not even the owners' (see 'tenant settings and plan').
    const [tenant] = await tp.db.sql`select name, plan from public.tenants where id = ${t.tenantId}`
    expect(tenant).toEqual({ name: 'Owned', plan: 'free' })
  })
})

describe('several tenants per user', () => {
  it('switches the active tenant; the hook puts it in the next token', async () => {
    const user = await createLoneUser(tp)
    const first = await tp.json<CreateTenantResponse>('/api/tenants', {
      token: user.token,
      body: { name: 'First' },
    })
    const second = await tp.json<CreateTenantResponse>('/api/tenants', {
      token: user.token,
      body: { name: 'Second' },
    })
    expect(await hookTenantId(tp, user.userId)).toBe(second.body.id)
    const session = await refreshedToken(tp, user)
    const list = await tp.json<ListTenantsResponse>('/api/tenants', { token: session.token })
    expect(list.body.data.map((t) => [t.name, t.active])).toEqual([
      ['First', false],
      ['Second', true],
    ])
    const switched = await tp.json<SwitchTenantResponse>('/api/tenants/active', {
      token: session.token,
      body: { tenant_id: first.body.id },
    })
    expect(switched.body).toEqual({ tenant_id: first.body.id, role: 'owner', refresh_session: true })
    expect(await hookTenantId(tp, user.userId)).toBe(first.body.id)
    // Not a member: 404, nothing changes.
    expect(
      (await tp.json('/api/tenants/active', { token: session.token, body: { tenant_id: a.tenantId } }))
        .status,
    ).toBe(404)
    expect(await hookTenantId(tp, user.userId)).toBe(first.body.id)
  })

  it('drops a tenant the user has left from the token', async () => {
    const t = await tp.createTenant()
    const member = await addMember(tp, t.tenantId, 'member')
    expect(await hookTenantId(tp, member.userId)).toBe(t.tenantId)
    await tp.json(`/api/tenants/current/members/${member.userId}`, { method: 'DELETE', token: t.token })
    expect(await hookTenantId(tp, member.userId)).toBeUndefined()
  })
})

describe('tenant isolation', () => {
  it("keeps tenant B away from tenant A's members and invitations", async () => {
    const member = await addMember(tp, a.tenantId, 'member')
    const { invitation } = await invite(a, `iso-${Date.now()}@example.com`)
    const members = await tp.json('/api/tenants/current/members', { token: b.token })
    expect(members.body.data.map((m: { user_id: string }) => m.user_id)).toEqual([b.userId])
    const invitations = await tp.json('/api/invitations', { token: b.token })
    expect(invitations.body.data.map((i: { id: string }) => i.id)).not.toContain(invitation.id)
    const patch = await tp.json(`/api/tenants/current/members/${member.userId}`, {
      method: 'PATCH',
      token: b.token,
      body: { role: 'admin' },
    })
    expect(patch.status).toBe(404)
    expect(
      (await tp.json(`/api/tenants/current/members/${member.userId}`, { method: 'DELETE', token: b.token }))
        .status,
    ).toBe(404)
    expect(
      (await tp.json(`/api/invitations/${invitation.id}`, { method: 'DELETE', token: b.token })).status,
    ).toBe(404)
    const [row] = await tp.db.sql`select role from public.tenant_members where user_id = ${member.userId}`
    expect(row!.role).toBe('member')
    const [inv] = await tp.db.sql`select revoked_at from public.invitations where id = ${invitation.id}`
    expect(inv!.revoked_at).toBeNull()
  })
})

describe('the ten event types', () => {
  it('are each written exactly once, by the change that causes them, with their documented data', async () => {
    const owner = await createLoneUser(tp)
    const created = await tp.json('/api/tenants', { token: owner.token, body: { name: 'Evented' } })
    const tenantId = created.body.id as string
    const { token } = await refreshedToken(tp, owner)
    const owned: TestTenant = { userId: owner.userId, email: owner.email, tenantId, token }
    await tp.json('/api/tenants/current', { method: 'PATCH', token, body: { name: 'Evented Inc' } })
    const invitee = await createLoneUser(tp)
    const inv = await invite(owned, invitee.email)
    await tp.json('/api/invitations/accept', { token: invitee.token, body: { token: inv.token } })
    const key = await tp.json('/api/api-keys', {
      token,
      body: {
        name: 'writer',
        environment: 'production',
        scopes: ['content:write'],
        rate_limit_per_minute: 100,
      },
    })
    const site = await tp.json('/v1/content/sites', { token: key.body.key, body: { name: 'Blog' } })
    const article = await tp.json('/v1/content/articles', {
      token: key.body.key,
      body: { site_id: site.body.id, title: 'Hello' },
    })
    const published = await tp.json(`/v1/content/articles/${article.body.id}/publish`, {
      method: 'POST',
      token: key.body.key,
    })
    await tp.json(`/v1/content/sites/${site.body.id}`, { method: 'DELETE', token: key.body.key })
    await tp.json(`/api/api-keys/${key.body.id}/revoke`, { method: 'POST', token })

    const events = await outbox(tp, tenantId)
    expect(events.map((e) => e.type)).toEqual([
      'tenant.created',
      'tenant.updated',
      'user.invited',
      'user.joined',
      'api_key.created',
      'site.created',
      'content.updated',
      'content.published',
      'site.deleted',
      'api_key.revoked',
    ])
    const byType = Object.fromEntries(events.map((e) => [e.type, e.data]))
    expect(byType['content.published']).toEqual({
      article_id: article.body.id,
      title: 'Hello',
      site_id: site.body.id,
      published_at: published.body.published_at,
    })
    expect(byType['site.created']).toMatchObject({ site_id: site.body.id, name: 'Blog', domain: null })
    expect(byType['site.deleted']).toMatchObject({ site_id: site.body.id, articles_deleted: 1 })
    expect(byType['content.updated']).toMatchObject({ article_id: article.body.id, change: 'created' })
    expect(byType['api_key.created']).toMatchObject({ api_key_id: key.body.id })
    for (const e of events) expect(e.id).toMatch(/^evt_/)
  })
})
