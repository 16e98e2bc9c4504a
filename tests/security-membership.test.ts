import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { MAX_AUTOMATIONS } from '../shared/services/assistant/automations.ts'
import { integrationBySlug } from '../shared/services/integrations/catalog.ts'
import { periodOf, productIds } from '../shared/services/usage/metering.ts'
import { type ScriptedLlm, startScriptedLlm } from './support/assistant-llm.ts'
import {
  addMember,
  startTestPlatform,
  TestClock,
  type TestPlatform,
  type TestTenant,
} from './support/platform.ts'
import { type ProviderServer, startSlack } from './support/provider-apis.ts'

/**
 * What a member set up acts with their current role and ends when they leave, and what one tenant
 * can do cannot crowd out another, over real HTTP on two instances against one database: a
 * demoted admin's key cannot approve a tool call; an automation whose creator is removed or
 * demoted stops (and says why) and never runs as anyone else; a tenant's automations are bounded
 * and the sweep is fair across tenants; concurrent turns never take a Free tenant past its quota.
 * (MCP OAuth grants of a removed member: tests/mcp-oauth.test.ts.)
 */

let tp: TestPlatform
let llm: ScriptedLlm
let slack: ProviderServer
const clock = new TestClock(new Date('2026-12-02T09:00:05.000Z'))
const slackClient = { clientId: 'slack-client', clientSecret: 'slack-secret-0123456789' }
const OPENAI = 'bc152fb4-8e13-4148-bfdc-1734d3f3c667'

beforeAll(async () => {
  ;[llm, slack] = await Promise.all([startScriptedLlm(), startSlack(slackClient)])
  tp = await startTestPlatform({
    instances: 2,
    clock,
    env: {
      OPENAI_BASE_URL: llm.openaiBaseUrl,
      OAUTH_PROVIDERS_OVERRIDE: JSON.stringify({
        slack: {
          api_base_url: `${slack.url}/api`,
          token_url: `${slack.url}/api/oauth.v2.access`,
          client_id: slackClient.clientId,
          client_secret: slackClient.clientSecret,
        },
      }),
    },
  })
}, 120_000)
afterAll(async () => {
  await Promise.all([slack?.close(), llm?.close()])
  await tp?.close()
})
beforeEach(() => {
  llm.reset([{ text: 'Done.' }])
})

async function tenantWithModel(plan?: string) {
  const t = await tp.createTenant()
  if (plan) await tp.db.sql`update public.tenants set plan = ${plan} where id = ${t.tenantId}`
  const res = await tp.json('/api/credentials', {
    token: t.token,
    body: { provider_id: OPENAI, name: 'openai', environment: 'production', credential: llm.key },
  })
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return t
}

async function conversation(token: string, title?: string): Promise<string> {
  const res = await tp.json('/v1/assistant/conversations', { token, body: title ? { title } : {} })
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return res.body.id
}

const setRole = (owner: TestTenant, user: TestTenant, role: 'admin' | 'member') =>
  tp.json(`/api/tenants/current/members/${user.userId}`, {
    method: 'PATCH',
    token: owner.token,
    body: { role },
  })

const remove = (owner: TestTenant, user: TestTenant) =>
  tp.request(`/api/tenants/current/members/${user.userId}`, { method: 'DELETE', token: owner.token })

async function platformKey(user: TestTenant, scopes: string[]) {
  const res = await tp.json('/api/api-keys', {
    token: user.token,
    body: {
      name: 'server app',
      kind: 'platform',
      environment: 'production',
      scopes,
      rate_limit_per_minute: 100,
    },
  })
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return res.body.key as string
}

async function seedSlack(t: TestTenant) {
  const entry = integrationBySlug('slack')!
  const vault = tp.instances[0]!.platform.deps.vault
  const token = `slack-access-${crypto.randomUUID()}`
  slack.validTokens.add(token)
  const [row] = await tp.db.sql<{ id: string }[]>`
    insert into public.integration_connections
      (tenant_id, integration_id, integration_slug, connection_type, status, external_account_id, external_account_name, scopes,
       access_token_encrypted, token_expires_at, created_by)
    values (${t.tenantId}, ${entry.integration_id}, 'slack', 'oauth', 'active', ${`acct-${crypto.randomUUID()}`},
            'Seeded', ${entry.oauth_scopes}, ${await vault.encrypt(t.tenantId, token, 'oauth-access-token')},
            ${new Date(clock.now().getTime() + 86_400_000)}, ${t.userId})
    returning id`
  return row!.id
}

const slackPosts = () => slack.received.filter((r) => r.path === '/api/chat.postMessage')
const sweep = (i = 0) => tp.instances[i]!.platform.runJob('assistant/jobs/sweep').then((r) => r.json())

const everyMinute = (name: string) => ({
  name,
  instruction: 'Post the time to #general',
  schedule: '* * * * *',
})

describe('a key acts with its creator’s current role', () => {
  it('a demoted admin’s key cannot approve an awaiting tool call, and the tool does not run', async () => {
    const owner = await tenantWithModel()
    const admin = await addMember(tp, owner.tenantId, 'admin')
    const key = await platformKey(admin, ['assistant:invoke'])
    const connection = await seedSlack(owner)
    const gate = await tp.json(`/api/connections/${connection}/permissions`, {
      token: owner.token,
      body: { tool_name: 'slack:post_message', allowed: true, requires_approval: true },
    })
    expect(gate.status).toBe(201)
    llm.reset([
      { toolCalls: [{ name: 'slack__post_message', arguments: { channel: 'C012AB3CD', text: 'Ship it' } }] },
      { text: 'Posted.' },
    ])
    // The key's own conversation: its creator sees it whatever their role.
    const id = await conversation(key)
    const paused = await tp.json(`/v1/assistant/conversations/${id}/messages`, {
      token: key,
      body: { content: 'Post "Ship it"' },
    })
    expect(paused.body.turn.status).toBe('awaiting_approval')
    const callId = paused.body.tool_calls[0].id
    expect((await setRole(owner, admin, 'member')).status).toBe(200)

    const before = slackPosts().length
    // On the other instance too: the role change reaches every instance's key cache.
    for (const instance of [0, 1]) {
      const approved = await tp.json(`/v1/assistant/conversations/${id}/approvals/${callId}`, {
        token: key,
        body: { approve: true },
        instance,
      })
      expect([approved.status, approved.body.code], JSON.stringify(approved.body)).toEqual([
        403,
        'INSUFFICIENT_PERMISSIONS',
      ])
      expect(approved.body.message).toContain("the key's creator")
    }
    expect(slackPosts().length).toBe(before)
    const [call] = await tp.db.sql<{ status: string }[]>`
      select status from public.assistant_tool_calls where id = ${callId}`
    expect(call!.status).toBe('awaiting_approval')

    // Promoted again, the same key approves: the role is read as it is now, not as it was.
    expect((await setRole(owner, admin, 'admin')).status).toBe(200)
    const approved = await tp.json(`/v1/assistant/conversations/${id}/approvals/${callId}`, {
      token: key,
      body: { approve: true },
      instance: 1,
    })
    expect(approved.status, JSON.stringify(approved.body)).toBe(200)
    expect(slackPosts().length).toBe(before + 1)
  })

  it('a removed member’s keys stay revoked when they are invited back', async () => {
    const owner = await tp.createTenant()
    const admin = await addMember(tp, owner.tenantId, 'admin')
    const key = await platformKey(admin, ['content:read'])
    expect((await tp.json('/v1/content', { token: key })).status).toBe(200)
    expect((await remove(owner, admin)).status).toBe(204)
    expect((await tp.json('/v1/content', { token: key, instance: 1 })).status).toBe(401)
    await tp.db.sql`insert into public.tenant_members (tenant_id, user_id, role)
      values (${owner.tenantId}, ${admin.userId}, 'admin')`
    // Within the change feed's second on the other instance, and at once here.
    const since = performance.now()
    let res = await tp.json('/v1/content', { token: key, instance: 1 })
    while (res.status === 401 && performance.now() - since < 1500) {
      await new Promise((r) => setTimeout(r, 50))
      res = await tp.json('/v1/content', { token: key, instance: 1 })
    }
    expect(res.status).toBe(401)
    expect((await tp.json('/v1/content', { token: key })).status).toBe(401)
  })
})

describe('automations end with their creator’s role', () => {
  it('stops an automation when its creator is removed or demoted, says why, and never runs it as another', async () => {
    const owner = await tenantWithModel()
    const leaver = await addMember(tp, owner.tenantId, 'admin')
    const demoted = await addMember(tp, owner.tenantId, 'admin')
    const made = []
    for (const [user, name] of [
      [leaver, 'Leaver'],
      [demoted, 'Demoted'],
      [owner, 'Owner'],
    ] as const) {
      const res = await tp.json('/v1/assistant/automations', { token: user.token, body: everyMinute(name) })
      expect(res.status, JSON.stringify(res.body)).toBe(201)
      made.push(res.body)
    }
    expect((await remove(owner, leaver)).status).toBe(204)
    expect((await setRole(owner, demoted, 'member')).status).toBe(200)

    const listed = await tp.json('/v1/assistant/automations', { token: owner.token })
    const byName = (n: string) => listed.body.data.find((a: { name: string }) => a.name === n)
    expect(byName('Leaver')).toMatchObject({
      enabled: false,
      disabled_reason: 'creator_removed',
      next_run_at: null,
    })
    expect(byName('Demoted')).toMatchObject({ enabled: false, disabled_reason: 'creator_demoted' })
    expect(byName('Owner')).toMatchObject({ enabled: true, disabled_reason: null })

    // Turned on again, it would run as a member: refused.
    const revived = await tp.json(`/v1/assistant/automations/${made[1].id}`, {
      method: 'PATCH',
      token: owner.token,
      body: { enabled: true },
    })
    expect([revived.status, revived.body.code]).toEqual([409, 'CONFLICT'])

    // The run-time check: an automation switched back on behind the API's back is disabled by
    // the sweep, not run as its creator, and not as the tenant's owner either.
    await tp.db.sql`update public.assistant_automations set enabled = true, disabled_reason = null
      where id in ${tp.db.sql([made[0].id, made[1].id])}`
    clock.advance(60_000)
    const requests = llm.requests.length
    const report = await sweep(1)
    expect(report.scheduled).toBe(1) // the owner's own
    const runs = await tp.db.sql<{ automation_id: string }[]>`
      select automation_id from public.assistant_automation_runs
      where automation_id in ${tp.db.sql(made.map((a) => a.id))}`
    expect(runs.map((r) => r.automation_id)).toEqual([made[2].id])
    expect(llm.requests.length).toBe(requests + 1)
    const after = await tp.json('/v1/assistant/automations', { token: owner.token })
    const again = (n: string) => after.body.data.find((a: { name: string }) => a.name === n)
    expect(again('Leaver')).toMatchObject({ enabled: false, disabled_reason: 'creator_removed' })
    expect(again('Demoted')).toMatchObject({ enabled: false, disabled_reason: 'creator_demoted' })
    const turns = await tp.db.sql<{ created_by: string }[]>`
      select created_by from public.assistant_turns where tenant_id = ${owner.tenantId} and triggered_by = 'automation'`
    expect(turns.map((t) => t.created_by)).toEqual([owner.userId])

    // An owner turned off by a person has no platform reason; turning it on clears none it had.
    await tp.json(`/v1/assistant/automations/${made[2].id}`, {
      method: 'DELETE',
      token: owner.token,
    })
  })
})

describe('automations are bounded per tenant and swept fairly', () => {
  it(`refuses automations past ${MAX_AUTOMATIONS} a tenant, also when created at once on two instances`, async () => {
    const t = await tp.createTenant()
    const results = await Promise.all(
      Array.from({ length: MAX_AUTOMATIONS + 5 }, (_, i) =>
        tp.json('/v1/assistant/automations', {
          token: t.token,
          body: { ...everyMinute(`A${i}`), enabled: false },
          instance: i % 2,
        }),
      ),
    )
    const statuses = results.map((r) => r.status)
    expect(statuses.filter((s) => s === 201)).toHaveLength(MAX_AUTOMATIONS)
    const refused = results.filter((r) => r.status !== 201)
    expect(refused.map((r) => [r.status, r.body.code])).toEqual(
      Array.from({ length: 5 }, () => [409, 'CONFLICT']),
    )
    expect(refused[0]!.body.message).toContain(`at most ${MAX_AUTOMATIONS} automations`)
  })

  it('gives every tenant with a due automation a run before any tenant gets a second', async () => {
    // Without an AI credential each run fails to start at once: the claim is what is measured.
    const busy = await tp.createTenant()
    const quiet = await tp.createTenant()
    for (let i = 0; i < MAX_AUTOMATIONS; i++) {
      const res = await tp.json('/v1/assistant/automations', {
        token: busy.token,
        body: everyMinute(`Busy ${i}`),
      })
      expect(res.status).toBe(201)
    }
    const q = await tp.json('/v1/assistant/automations', { token: quiet.token, body: everyMinute('Quiet') })
    expect(q.status).toBe(201)
    // The busy tenant's are the most overdue.
    await tp.db
      .sql`update public.assistant_automations set next_run_at = ${new Date(clock.now().getTime() - 3_600_000)}
      where tenant_id = ${busy.tenantId}`
    await tp.db
      .sql`update public.assistant_automations set next_run_at = ${clock.now()} where tenant_id = ${quiet.tenantId}`
    const report = await sweep(0)
    expect(report.scheduled).toBe(20)
    const ran = await tp.db.sql<{ tenant_id: string; n: number }[]>`
      select tenant_id, count(*)::int as n from public.assistant_automation_runs
      where tenant_id in ${tp.db.sql([busy.tenantId, quiet.tenantId])} group by tenant_id`
    expect(Object.fromEntries(ran.map((r) => [r.tenant_id, r.n]))).toEqual({
      [busy.tenantId]: 19,
      [quiet.tenantId]: 1,
    })
    await tp.db
      .sql`delete from public.assistant_automations where tenant_id in ${tp.db.sql([busy.tenantId, quiet.tenantId])}`
  })
})

describe('the assistant quota under concurrency', () => {
  it('eight concurrent turns on the Free plan never take the tenant past 10,000 tokens', async () => {
    const t = await tenantWithModel('free')
    // Titled by hand: no background title call, whose own metered tokens would blur the count.
    const ids = await Promise.all(Array.from({ length: 8 }, (_, i) => conversation(t.token, `Summary ${i}`)))
    // Each call reports 5,000 tokens: 3,000 in (the long message below is ~9,000 bytes), 2,000 out.
    let release = () => {}
    const hold = new Promise<void>((r) => {
      release = r
    })
    llm.reset([{ text: 'A long answer.', usage: { input: 3000, output: 2000 }, hold }])
    const content = 'Summarise this: '.padEnd(9000, 'lorem ipsum ')
    const n = llm.requests.length
    const turns = ids.map((id, i) =>
      tp.json(`/v1/assistant/conversations/${id}/messages`, {
        token: t.token,
        body: { content },
        instance: i % 2,
      }),
    )
    // Every turn either reached the provider or was refused before it; then they all finish.
    const settled = Promise.all(turns)
    await new Promise((r) => setTimeout(r, 50))
    await llm.waitForRequests(n + 1)
    release()
    const answers = await settled
    const completed = answers.filter((a) => a.status === 200 && a.body.turn.status === 'completed')
    const refused = answers.filter((a) => a.status === 429 || a.body.turn?.status === 'stopped')
    expect(completed.length + refused.length).toBe(8)
    expect(completed.length).toBeGreaterThanOrEqual(1)
    expect(completed.length).toBeLessThanOrEqual(2)
    expect(llm.requests.length - n).toBe(completed.length)
    const [counter] = await tp.db.sql<{ units: string }[]>`
      select units from public.usage_counters
      where tenant_id = ${t.tenantId} and product_id = ${productIds.assistant} and period = ${periodOf(clock.now())}`
    expect(Number(counter!.units)).toBeLessThanOrEqual(10_000)
    expect(Number(counter!.units)).toBe(5000 * completed.length)
  })
})
