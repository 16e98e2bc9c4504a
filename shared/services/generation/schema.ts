import { z } from '@hono/zod-openapi'

export const aiProviders = ['openai', 'anthropic'] as const
export type AiProvider = (typeof aiProviders)[number]

export const defaultModels: Record<AiProvider, string> = {
  openai: 'gpt-4o-mini',
  anthropic: 'claude-sonnet-4-6',
}

export const generateArticleBody = z
  .object({
    site_id: z.uuid().openapi({ description: 'The site the draft is created in' }),
    item_ids: z
      .array(z.uuid())
      .min(1)
      .max(50)
      .refine((ids) => new Set(ids).size === ids.length, 'item_ids must not repeat')
      .optional()
      .openapi({ description: 'Scraped items to write from (GET /api/sources/{id}/items); or source_id' }),
    source_id: z
      .uuid()
      .optional()
      .openapi({ description: "Write from this source's newest items; or item_ids" }),
    max_items: z
      .number()
      .int()
      .min(1)
      .max(50)
      .default(10)
      .openapi({ description: 'With source_id: how many of its newest items' }),
    instructions: z
      .string()
      .max(4000)
      .refine((s) => !s.includes('\u0000'), 'must not contain NUL')
      .optional()
      .openapi({ description: 'Editorial instructions: tone, length, audience, language' }),
    provider: z.enum(aiProviders).default('openai').openapi({
      description:
        "Whose API: OpenAI-compatible Chat Completions, or Anthropic Messages; the tenant's vault credential of that provider (category AI) is used",
    }),
    model: z
      .string()
      .min(1)
      .max(100)
      .regex(/^[A-Za-z0-9._:/@-]+$/)
      .optional()
      .openapi({ description: 'The model id (default gpt-4o-mini / claude-sonnet-4-6)' }),
    credential_environment: z.enum(['development', 'staging', 'production']).default('production'),
    tenant_id: z
      .uuid()
      .optional()
      .openapi({ description: "Required with the service-role key; else the caller's own tenant" }),
  })
  .strict()
  .refine((b) => (b.item_ids === undefined) !== (b.source_id === undefined), {
    message: 'give exactly one of item_ids and source_id',
    path: ['item_ids'],
  })
  .openapi('GenerateArticle', {
    example: {
      site_id: '5b1d7c3e-9f2a-4e6b-8d1c-3a4b5c6d7e8f',
      source_id: '8c5a3e1f-2b4d-4f6a-9e7c-1a2b3c4d5e6f',
      max_items: 5,
      instructions: 'A friendly round-up in 400 words',
      provider: 'openai',
    },
  })

export type GenerateArticleInput = z.output<typeof generateArticleBody>
