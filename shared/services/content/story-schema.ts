import { z } from '@hono/zod-openapi'
import { isoTimestamp } from '@shared/infra/schemas.ts'

/** The kinds of step in an article's story, in the order a story happens. */
const storyStepKinds = [
  'source_item',
  'event_received',
  'automation_run',
  'conversation',
  'generation_job',
  'tool_call',
  'revision',
  'approval',
  'scheduled',
  'published',
  'unpublished',
  'webhook_delivery',
] as const

const storyStepSchema = z
  .object({
    kind: z.enum(storyStepKinds),
    at: isoTimestamp().openapi({ description: 'When the step happened, by the platform’s own record' }),
    id: z.string().openapi({
      description: 'The id of the step’s record (an item, run, call, revision, event, delivery)',
    }),
    summary: z.string(),
    link: z.string().nullable().openapi({
      description: 'The API path that reads the record (null for an event: its webhook deliveries follow it)',
    }),
    actor: z
      .uuid()
      .nullable()
      .openapi({ description: 'Who did it, when a person did (an approver, a revision’s author)' }),
  })
  .openapi('StoryStep')

export const articleStorySchema = z
  .object({
    article: z.object({
      id: z.uuid(),
      title: z.string(),
      status: z.string(),
      created_at: isoTimestamp(),
    }),
    steps: z.array(storyStepSchema),
  })
  .openapi('ArticleStory')

export type StoryStep = z.infer<typeof storyStepSchema>
export type ArticleStory = z.infer<typeof articleStorySchema>
