import {
  Client as ClientV2,
  StreamableHTTPClientTransport as TransportV2,
} from '@modelcontextprotocol/client'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { integrationBySlug } from '../shared/services/integrations/catalog.ts'
import { setupTimeout, startTestPlatform, type TestPlatform, type TestTenant } from './support/platform.ts'
import { type ProviderServer, startSlack } from './support/provider-apis.ts'

/**
 * URL elicitation for a missing connection (ADR 0043), over real HTTP with the SDK's v2 client on
 * 2026-07-28 and the v1 client on 2025-11-25: a tool of an integration the tenant has not
 * connected, or of a connection that needs re-authorization, answers a 2026-07-28 client that
 * declared URL-mode elicitation with a URL elicitation of the dashboard's page (an input-required
 * result; the client retries when the user is done), and every other client with a tool error
 * carrying the same link; once the connection is made, the same call succeeds.
 */

let tp: TestPlatform
let slack: ProviderServer
let a: TestTenant
let key: string
const DASHBOARD = 'https://dashboard.example.test'
const slackClient = { clientId: 'slack-client', clientSecret: 'slack-secret-0123456789' }
const POST = { name: 'slack__post_message', arguments: { channel: 'C012AB3CD', text: 'hello' } }

beforeAll(async () => {
  slack = await startSlack(slackClient)
  tp = await startTestPlatform({
    env: {
      DASHBOARD_URL: DASHBOARD,
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
  a = await tp.createTenant()
  const res = await tp.json('/api/api-keys', {
    token: a.token,
    body: {
      name: 'agent',
      kind: 'tool_server',
      environment: 'development',
      scopes: ['content:read'],
      rate_limit_per_minute: 100,
    },
  })
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  key = res.body.key
}, setupTimeout())
afterAll(async () => {
  await slack?.close()
  await tp?.close()
})

/** A Slack connection as the OAuth grant leaves it, in the given status. */
async function seedSlack(status: string): Promise<string> {
  const entry = integrationBySlug('slack')!
  const vault = tp.instances[0]!.platform.deps.vault
  const token = `slack-access-${crypto.randomUUID()}`
  slack.validTokens.add(token)
  const [row] = await tp.db.sql<{ id: string }[]>`
    insert into public.integration_connections
      (tenant_id, integration_id, integration_slug, connection_type, status, external_account_id, external_account_name, scopes,
       access_token_encrypted, token_expires_at, created_by)
    values (${a.tenantId}, ${entry.integration_id}, 'slack', 'oauth', ${status}, ${`acct-${crypto.randomUUID()}`},
            'Seeded', ${entry.oauth_scopes}, ${await vault.encrypt(a.tenantId, token, 'oauth-access-token')},
            ${new Date(Date.now() + 86_400_000)}, ${a.userId})
    returning id`
  return row!.id
}

const mcpUrl = () => new URL(`${tp.baseUrl}/mcp`)

interface Asked {
  mode?: string
  url?: string
  message?: string
}

/**
 * A v2 client on 2026-07-28. With `onUrl`, it declares URL-mode elicitation and answers each
 * elicitation/create by running onUrl (the user following the link) and accepting.
 */
async function v2Client(onUrl?: (asked: Asked) => Promise<void>) {
  const client = new ClientV2(
    { name: 'v2', version: '2.4.0' },
    {
      versionNegotiation: { mode: { pin: '2026-07-28' } } as never,
      capabilities: onUrl ? { elicitation: { url: {} } } : {},
    },
  )
  if (onUrl)
    client.setRequestHandler('elicitation/create', async (req) => {
      await onUrl(req.params as Asked)
      return { action: 'accept' }
    })
  await client.connect(new TransportV2(mcpUrl(), { requestInit: { headers: { 'x-api-key': key } } }))
  expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28')
  return client
}

async function v1Client(elicitationUrl: boolean) {
  const client = new Client(
    { name: 'v1', version: '1' },
    { capabilities: elicitationUrl ? { elicitation: { url: {} } } : {} },
  )
  await client.connect(
    new StreamableHTTPClientTransport(mcpUrl(), { requestInit: { headers: { 'x-api-key': key } } }),
  )
  return client
}

const text = (r: unknown) =>
  (((r as { content?: unknown }).content as { type: string; text?: string }[]) ?? [])
    .map((c) => c.text ?? '')
    .join('')

describe('a tool of an integration the tenant has not connected', () => {
  it('asks a 2026-07-28 client that takes URL elicitations to connect it on the dashboard; the retried call succeeds', async () => {
    const asked: Asked[] = []
    let id = ''
    const client = await v2Client(async (e) => {
      asked.push(e)
      id = await seedSlack('active') // the user connects Slack on the page
    })
    const ok = await client.callTool(POST)
    expect(asked).toEqual([
      expect.objectContaining({ mode: 'url', url: `${DASHBOARD}/#/integrations?connect=slack` }),
    ])
    expect(asked[0]!.message).toContain('Connect slack')
    expect(ok.isError ?? false).toBe(false)
    expect(slack.received.some((r) => r.path === '/api/chat.postMessage')).toBe(true)
    await client.close()
    await tp.db.sql`delete from public.integration_connections where id = ${id}`
  })

  it('answers the retry with the tool error when the user did not connect it', async () => {
    const asked: Asked[] = []
    const client = await v2Client(async (e) => {
      asked.push(e)
    })
    const r = await client.callTool(POST)
    expect(asked).toHaveLength(1)
    expect(r.isError).toBe(true)
    expect(text(r)).toContain(`${DASHBOARD}/#/integrations?connect=slack`)
    await client.close()
  })

  it('gives a client without URL elicitation a tool error with the same link (2026-07-28 and 2025-11-25)', async () => {
    for (const client of [await v2Client(), await v1Client(false)]) {
      const r = await client.callTool(POST)
      expect(r.isError).toBe(true)
      expect(text(r)).toContain(`${DASHBOARD}/#/integrations?connect=slack`)
      expect(r.structuredContent).toMatchObject({ reason: 'connection_required', integration: 'slack' })
      await client.close()
    }
  })

  it('answers an older revision with the tool error even when its initialize declared URL elicitation', async () => {
    // The stateless server answers initialize on another message than the call: it cannot know.
    const client = await v1Client(true)
    const r = await client.callTool(POST)
    expect(r.isError).toBe(true)
    expect(text(r)).toContain(`${DASHBOARD}/#/integrations?connect=slack`)
    await client.close()
  })

  it('still answers a name of no integration as an unknown tool', async () => {
    const client = await v2Client(async () => {})
    await expect(client.callTool({ name: 'nosuch__tool', arguments: {} })).rejects.toMatchObject({
      code: -32602,
    })
    await client.close()
  })
})

describe('a connection that needs re-authorization', () => {
  it('asks to re-authorize it on its dashboard page; once active again the call succeeds', async () => {
    const id = await seedSlack('needs_reauth')
    const v1 = await v1Client(false)
    const r = await v1.callTool(POST)
    expect(r.isError).toBe(true)
    expect(text(r)).toContain(`${DASHBOARD}/#/integrations/${id}`)
    await v1.close()

    const asked: Asked[] = []
    const client = await v2Client(async (e) => {
      asked.push(e)
      await tp.db.sql`update public.integration_connections set status = 'active' where id = ${id}`
    })
    const ok = await client.callTool(POST)
    expect(asked).toEqual([
      expect.objectContaining({ mode: 'url', url: `${DASHBOARD}/#/integrations/${id}` }),
    ])
    expect(asked[0]!.message).toContain('Re-authorize the slack connection')
    expect(ok.isError ?? false).toBe(false)

    // The refusals are metered as any refused call: a failed usage row each, then the success.
    const log = await tp.db.sql<{ success: boolean }[]>`
      select success from public.integration_usage where connection_id = ${id} order by created_at`
    expect(log.map((l) => l.success)).toEqual([false, false, true])
    await client.close()
  })
})
