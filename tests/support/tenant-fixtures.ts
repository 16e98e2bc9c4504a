import { expect } from 'vitest'
import type { TestPlatform, TestTenant } from './platform.ts'

/**
 * One record of each tenant-owned resource, made as `tenant`, for tests that check another tenant
 * cannot reach them (the security matrix). Returns their ids by name. Records are made through the
 * API where one exists; an OAuth connection needs a provider's consent, so it is inserted with its
 * tokens encrypted as the callback stores them.
 */
export async function tenantFixtures(tp: TestPlatform, tenant: TestTenant): Promise<Record<string, string>> {
  const post = async (path: string, body: unknown) => {
    const res = await tp.json(path, { token: tenant.token, body })
    expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBeLessThan(300)
    return res.body
  }
  const apiKey = await post('/api/api-keys', {
    name: 'fixture',
    environment: 'production',
    scopes: ['content:read'],
    rate_limit_per_minute: 10,
  })
  const site = await post('/v1/content/sites', { name: 'Fixture site' })
  const article = await post('/v1/content/articles', { site_id: site.id, title: 'Fixture', body: 'text' })
  const providers = (await tp.json('/api/providers', { token: tenant.token })).body.data as { id: string }[]
  const credential = await post('/api/credentials', {
    provider_id: providers[0]!.id,
    name: 'fixture',
    environment: 'production',
    credential: 'sk-fixture-0123456789',
    scopes: [],
  })
  const webhook = await post('/api/webhooks', { url: 'http://127.0.0.1:9/fixture', events: ['site.created'] })
  const products = (await tp.json('/api/usage', { token: tenant.token })).body.products as {
    product_id: string
  }[]
  const alert = await post('/api/usage-alerts', {
    product_id: products[0]!.product_id,
    threshold_percent: 50,
    notification_type: 'email',
    notification_target: 'ops@example.com',
  })
  const invitation = await post('/api/invitations', {
    email: `invitee-${Date.now()}@example.com`,
    role: 'member',
  })
  const catalog = (await tp.json('/api/integrations', { token: tenant.token })).body.data as {
    integration_id: string
    slug: string
    connection_types: string[]
  }[]
  const oauth = catalog.find((e) => e.connection_types.includes('oauth'))!
  const vault = tp.instances[0]!.platform.deps.vault
  const [connection] = await tp.db.sql<{ id: string }[]>`
    insert into public.integration_connections
      (tenant_id, integration_id, integration_slug, connection_type, status, external_account_id, external_account_name,
       scopes, access_token_encrypted, token_expires_at, created_by)
    values (${tenant.tenantId}, ${oauth.integration_id}, ${oauth.slug}, 'oauth', 'active', 'fixture', 'Fixture', '{}',
            ${await vault.encrypt(tenant.tenantId, 'fixture-token', 'oauth-access-token')},
            ${new Date(Date.now() + 86_400_000)}, ${tenant.userId})
    returning id`
  const store = await post('/api/commerce/stores', {
    platform: 'shopify',
    shop_domain: `fixture-${Date.now()}.myshopify.com`,
    name: 'Fixture store',
    secret: 'shpss_fixture_0123456789',
  })
  // A delivery arrives signed from the shop; the row is what receiving would have stored.
  const [delivery] = await tp.db.sql<{ id: string }[]>`
    insert into public.commerce_deliveries (tenant_id, store_id, platform, topic, webhook_id, payload_bytes, status, received_at, updated_at)
    values (${tenant.tenantId}, ${store.id}, 'shopify', 'orders/create', ${`fixture-${Date.now()}`}, 0, 'failed', now(), now())
    returning id`
  // Jobs are made by the server functions; one queued row is enough to be found (or not).
  const [job] = await tp.db.sql<{ id: string }[]>`
    insert into public.jobs (tenant_id, kind) values (${tenant.tenantId}, 'fixture.job') returning id`
  const source = await post('/api/sources', {
    site_id: site.id,
    name: 'Fixture source',
    kind: 'feed',
    config: { url: 'https://example.com/feed.xml' },
  })
  const [destination] = await tp.db.sql<{ id: string }[]>`
    with site as (insert into public.sites (tenant_id, name) values (${tenant.tenantId}, 'Fixture shop') returning id)
    insert into public.affiliate_destinations (tenant_id, site_id, name)
    select ${tenant.tenantId}, id, 'Fixture destination' from site
    returning id`
  const assistantConversation = await post('/v1/assistant/conversations', { title: 'Fixture' })
  const assistantAutomation = await post('/v1/assistant/automations', {
    name: 'Fixture',
    instruction: 'Say hello',
    schedule: '0 8 * * 1-5',
  })
  return {
    apiKey: apiKey.id,
    site: site.id,
    article: article.id,
    credential: credential.id,
    webhook: webhook.id,
    alert: alert.id,
    invitation: invitation.id,
    connection: connection!.id,
    member: tenant.userId,
    store: store.id,
    delivery: delivery!.id,
    job: job!.id,
    source: source.id,
    affiliateDestination: destination!.id,
    assistantConversation: assistantConversation.id,
    assistantAutomation: assistantAutomation.id,
  }
}
