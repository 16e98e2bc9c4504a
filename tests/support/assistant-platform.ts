import { integrationBySlug } from '@shared/services/integrations/catalog.ts'
import { expect } from 'vitest'
import { type ScriptedLlm, startScriptedLlm } from './assistant-llm.ts'
import { startTestPlatform, type TestClock, type TestPlatform, type TestTenant } from './platform.ts'
import { type ProviderServer, startSlack } from './provider-apis.ts'

/**
 * The set-up the assistant's test files share: the platform (one instance or two on one database)
 * with its peers on loopback, the scripted model provider (OpenAI and Anthropic spoken) and a Slack
 * whose OAuth endpoints the platform is pointed at; a tenant's AI credential, a conversation, and a
 * seeded Slack connection whose post_message may need approval.
 */

export const AI_PROVIDER_IDS = {
  openai: 'bc152fb4-8e13-4148-bfdc-1734d3f3c667',
  anthropic: 'd93a4ccf-d51d-4724-b33c-944d28befd87',
} as const

const SLACK_CLIENT = { clientId: 'slack-client', clientSecret: 'slack-secret-0123456789' }

export interface AssistantPlatform {
  tp: TestPlatform
  llm: ScriptedLlm
  slack: ProviderServer
  close(): Promise<void>
}

/** The platform's OAuth settings for the loopback Slack (its API and token endpoints). */
function slackOverride(slack: ProviderServer): string {
  return JSON.stringify({
    slack: {
      api_base_url: `${slack.url}/api`,
      token_url: `${slack.url}/api/oauth.v2.access`,
      client_id: SLACK_CLIENT.clientId,
      client_secret: SLACK_CLIENT.clientSecret,
    },
  })
}

export async function startAssistantPlatform(
  opts: { instances?: number; clock?: TestClock; env?: Record<string, string> } = {},
): Promise<AssistantPlatform> {
  const [llm, slack] = await Promise.all([startScriptedLlm(), startSlack(SLACK_CLIENT)])
  const closePeers = () => Promise.all([slack.close(), llm.close()])
  try {
    const tp = await startTestPlatform({
      instances: opts.instances,
      clock: opts.clock,
      env: {
        OPENAI_BASE_URL: llm.openaiBaseUrl,
        ANTHROPIC_BASE_URL: llm.anthropicBaseUrl,
        OAUTH_PROVIDERS_OVERRIDE: slackOverride(slack),
        ...opts.env,
      },
    })
    return {
      tp,
      llm,
      slack,
      close: async () => {
        await closePeers()
        await tp.close()
      },
    }
  } catch (err) {
    await closePeers()
    throw err
  }
}

/** Saves the scripted model's key as the tenant's AI credential (production, as the assistant looks). */
export async function addModelCredential(
  tp: TestPlatform,
  llm: ScriptedLlm,
  t: TestTenant,
  provider: keyof typeof AI_PROVIDER_IDS = 'openai',
): Promise<void> {
  const res = await tp.json('/api/credentials', {
    token: t.token,
    body: {
      provider_id: AI_PROVIDER_IDS[provider],
      name: provider,
      environment: 'production',
      credential: llm.key,
    },
  })
  expect(res.status, JSON.stringify(res.body)).toBe(201)
}

/** A new conversation's id; a title given by hand starts no model-made title later. */
export async function newConversation(
  tp: TestPlatform,
  t: TestTenant,
  opts: { title?: string; instance?: number } = {},
): Promise<string> {
  const res = await tp.json('/v1/assistant/conversations', {
    token: t.token,
    body: opts.title ? { title: opts.title } : {},
    instance: opts.instance,
  })
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return res.body.id
}

/**
 * An active Slack connection of the tenant, as an OAuth grant would leave it (its access token
 * encrypted with the platform's vault, and known to the loopback Slack), expiring `expiresAt`;
 * with `requiresApproval`, its post_message waits for an owner's or admin's approval. Its id.
 */
export async function seedSlackConnection(
  tp: TestPlatform,
  slack: ProviderServer,
  t: TestTenant,
  opts: { expiresAt: Date; requiresApproval?: boolean },
): Promise<string> {
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
            ${opts.expiresAt}, ${t.userId})
    returning id`
  if (opts.requiresApproval) {
    const gate = await tp.json(`/api/connections/${row!.id}/permissions`, {
      token: t.token,
      body: { tool_name: 'slack:post_message', allowed: true, requires_approval: true },
    })
    expect(gate.status, JSON.stringify(gate.body)).toBe(201)
  }
  return row!.id
}

/** What the loopback Slack received at chat.postMessage. */
export const slackPosts = (slack: ProviderServer) =>
  slack.received.filter((r) => r.path === '/api/chat.postMessage')
