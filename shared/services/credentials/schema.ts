import { z } from '@hono/zod-openapi'
import { pageQuery } from '@shared/infra/pagination.ts'
import { isoTimestamp } from '@shared/infra/schemas.ts'

/** The spec's 14 provider category names, exactly as written there. */
export const providerCategories = [
  'AI',
  'Payments',
  'Email',
  'Communications',
  'Storage',
  'Database',
  'Infrastructure',
  'Development',
  'Productivity',
  'Analytics',
  'Monitoring',
  'Ecommerce',
  'Affiliate',
  'Scraping',
] as const

import { callerKinds, environments } from './use-credential.ts'

export type { Environment } from './use-credential.ts'

/**
 * Size limit of a secret. Real provider secrets are far smaller (API keys < 200 characters; a
 * cloud service-account JSON key or a PEM private key a few KiB); 16 KiB leaves room for those
 * and keeps one credential bounded.
 */
export const MAX_SECRET_LENGTH = 16_384

/** Days before expiry at which a credential counts as 'expiring' and owners are alerted. */
export const EXPIRING_WITHIN_DAYS = 7

const secret = z
  .string()
  .min(1, 'must not be empty')
  .max(MAX_SECRET_LENGTH, `at most ${MAX_SECRET_LENGTH} characters`)
  .refine((s) => s.trim().length > 0, 'must not be only whitespace')
  .openapi({
    description: 'The secret. Encrypted at once; never returned, only its key_hint.',
    example: 'sk-live-...',
  })

const name = z
  .string()
  .trim()
  .min(1)
  .max(100)
  // Names end up in e-mail subjects (expiry alerts): no control characters.
  .refine((s) => !/\p{Cc}/u.test(s), 'must not contain control characters')
  .openapi({ example: 'Production OpenAI key' })

const scopes = z
  .array(z.string().trim().min(1).max(64))
  .max(20)
  .refine((s) => new Set(s).size === s.length, 'scopes must not repeat')
  .openapi({ description: 'Free labels for the use of the credential', example: ['inference'] })

/** The API base URL of an OpenAI-compatible credential (OpenRouter, Azure, a self-hosted server). */
const MAX_BASE_URL_LENGTH = 500
const baseUrl = z
  .url({ protocol: /^https?$/ })
  .max(MAX_BASE_URL_LENGTH)
  .openapi({
    description:
      "OpenAI-compatible credentials only: the API base URL the assistant's model calls go to instead of the platform's (e.g. https://openrouter.ai/api/v1). Checked against the outbound address policy: no loopback or private addresses, https only, unless the deployment allows them.",
    example: 'https://openrouter.ai/api/v1',
  })

const expiresAt = isoTimestamp().openapi({ description: 'Must lie in the future' })

export const createCredentialBody = z
  .object({
    provider_id: z.uuid().openapi({ description: 'A provider from GET /api/providers' }),
    name,
    environment: z.enum(environments),
    credential: secret,
    scopes: scopes.default([]),
    expires_at: expiresAt.optional(),
    base_url: baseUrl.optional(),
  })
  .strict()
  .openapi('CreateCredential', {
    example: {
      provider_id: '8c5a3e1f-2b4d-4f6a-9e7c-1a2b3c4d5e6f',
      name: 'OpenAI production',
      environment: 'production',
      credential: 'sk-the-provider-secret',
      expires_at: '2027-06-30T00:00:00Z',
    },
  })

export const updateCredentialBody = z
  .object({
    name: name.optional(),
    scopes: scopes.optional(),
    expires_at: expiresAt.nullable().optional().openapi({ description: 'null removes the expiry' }),
    base_url: baseUrl.nullable().optional().openapi({ description: "null: the platform's base URL again" }),
  })
  .strict()
  .refine((b) => Object.keys(b).length > 0, 'name, scopes, expires_at or base_url is required')
  .openapi('UpdateCredential', { example: { name: 'OpenAI (main)', expires_at: null } })

export const rotateCredentialBody = z
  .object({
    credential: secret,
    expires_at: expiresAt
      .nullable()
      .optional()
      .openapi({ description: 'The new secret’s expiry; null removes it' }),
  })
  .strict()
  .openapi('RotateCredential', {
    example: { credential: 'sk-the-new-provider-secret', expires_at: '2027-12-31T00:00:00Z' },
  })

const providerSchema = z
  .object({
    id: z.uuid(),
    slug: z.string().openapi({ example: 'openai' }),
    name: z.string().openapi({ example: 'OpenAI' }),
    category: z.enum(providerCategories),
    icon_url: z.string().openapi({ example: 'https://openai.com/favicon.ico' }),
  })
  .openapi('Provider')

export const providerListSchema = z.object({ data: z.array(providerSchema) })

export const providerQuery = z.object({
  category: z.enum(providerCategories).optional().openapi({ description: 'Only providers of this category' }),
})

const credentialStatuses = ['active', 'expiring', 'expired'] as const

export const credentialSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    environment: z.enum(environments),
    key_hint: z.string().openapi({ example: '...a1B2c3', description: "'...' and the last 6 characters" }),
    provider_id: z.uuid(),
    provider: providerSchema,
    scopes: z.array(z.string()),
    base_url: z
      .string()
      .nullable()
      .openapi({ description: "An OpenAI-compatible credential's own API base URL; null: the platform's" }),
    expires_at: z.string().nullable(),
    status: z.enum(credentialStatuses).openapi({
      description: `expiring: expires within ${EXPIRING_WITHIN_DAYS} days; expired: expires_at has passed`,
    }),
    last_used_at: z.string().nullable(),
    rotated_at: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi('Credential')

export const credentialListSchema = z.object({
  data: z.array(credentialSchema),
  next_cursor: z.string().nullable(),
})

export const credentialListQuery = pageQuery.extend({
  provider_id: z.uuid().optional().openapi({ description: 'Only credentials of this provider' }),
  environment: z
    .enum(environments)
    .optional()
    .openapi({ description: 'Only credentials of this environment' }),
})

const usageSchema = z
  .object({
    id: z.uuid(),
    caller_kind: z.enum(callerKinds),
    function_name: z.string(),
    used_at: z.string(),
  })
  .openapi('CredentialUsage')

export const usageListSchema = z.object({ data: z.array(usageSchema), next_cursor: z.string().nullable() })

export type Credential = z.infer<typeof credentialSchema>
export type Provider = z.infer<typeof providerSchema>
export type CredentialUsage = z.infer<typeof usageSchema>
