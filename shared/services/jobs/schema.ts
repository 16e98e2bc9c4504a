import { z } from '@hono/zod-openapi'
import { pageQuery } from '@shared/infra/pagination.ts'

const jobStatuses = ['queued', 'running', 'succeeded', 'failed'] as const

export const jobSchema = z
  .object({
    id: z.uuid(),
    kind: z.string().openapi({ example: 'scrape-social.source' }),
    status: z.enum(jobStatuses),
    input: z.record(z.string(), z.unknown()),
    attempts: z.number().int(),
    max_attempts: z.number().int(),
    run_after: z
      .string()
      .openapi({ description: 'Not run before this time (the next retry, when queued again)' }),
    result: z.unknown().nullable().openapi({ description: 'What the job produced, once succeeded' }),
    error: z
      .string()
      .nullable()
      .openapi({ description: 'Why the job failed, or why the last attempt failed while it is retried' }),
    created_by: z
      .uuid()
      .nullable()
      .openapi({ description: 'The user who asked for it; null for scheduled runs' }),
    created_at: z.string(),
    updated_at: z.string(),
    started_at: z.string().nullable(),
    finished_at: z.string().nullable(),
  })
  .openapi('Job')

export const jobListSchema = z.object({ data: z.array(jobSchema), next_cursor: z.string().nullable() })

export const jobListQuery = pageQuery.extend({
  kind: z
    .string()
    .max(400)
    .regex(/^[a-z0-9_.-]+(,[a-z0-9_.-]+){0,9}$/, 'one job kind, or up to 10 separated by commas')
    .optional()
    .openapi({
      description:
        'Only jobs of this kind, or of any of up to 10 kinds separated by commas (e.g. scrape-social.source,generate-article.article)',
      example: 'assistant.turn',
    }),
  status: z.enum(jobStatuses).optional(),
  origin: z.enum(['background']).optional().openapi({
    description:
      "background: leave out the assistant turns a member's chat message asked for (one a message), keeping every other job: scrapes, generations, syncs and automations' runs",
  }),
})

/** What a server function answers when it has queued a job (202). */
export const acceptedJobSchema = z
  .object({
    job_id: z.uuid(),
    kind: z.string(),
    status: z.enum(jobStatuses),
    status_url: z.string().openapi({ example: '/api/jobs/4f0c...' }),
  })
  .openapi('AcceptedJob')

export type Job = z.infer<typeof jobSchema>
export type AcceptedJob = z.infer<typeof acceptedJobSchema>

/** What a server function's sweep job answers: the jobs it ran, by outcome. */
export const sweepReportSchema = z.object({
  succeeded: z.number().int(),
  failed: z.number().int(),
  retried: z.number().int(),
})

/** A sweep that first queues the scheduled runs that are due (scrape-social, sync-affiliate). */
export const scheduledSweepReportSchema = sweepReportSchema.extend({
  scheduled: z.number().int().openapi({ description: 'Scheduled runs queued by this sweep' }),
})
