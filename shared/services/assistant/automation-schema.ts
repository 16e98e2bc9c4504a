import { z } from '@hono/zod-openapi'
import { MAX_MESSAGE_CHARS, noNul } from './schema.ts'

/** Request and response bodies of automations (docs/assistant.md, Automations). */

/** The platform events an automation may run on (the event catalog's names). */
export const automationEvents = [
  'content.published',
  'content.updated',
  'source.items_added',
  'order.created',
  'order.updated',
] as const

const automationTriggerSchema = z
  .discriminatedUnion('type', [
    z.strictObject({
      type: z.literal('schedule'),
      schedule: z.string().min(9).max(100).openapi({
        description: 'A 5-field cron expression in UTC (minute hour day month weekday)',
        example: '0 8 * * 1-5',
      }),
    }),
    z.strictObject({
      type: z.literal('event'),
      event: z.enum(automationEvents).openapi({
        description:
          'The platform event of the tenant that starts a run (once per event); its data is given to the turn',
      }),
    }),
  ])
  .openapi('AutomationTrigger', { example: { type: 'event', event: 'content.published' } })
export type AutomationTrigger = z.infer<typeof automationTriggerSchema>

const unattendedToolsSchema = z
  .array(z.string().min(1).max(200).refine(noNul, 'must not contain NUL'))
  .max(100)
  .openapi({
    description:
      "Write tools (REST names, e.g. platform:update_article) that run without approval in this automation's event-started runs. Every other write tool of such a run waits for an owner's or admin's approval, since the event's data carries text others wrote. Tools that always wait (publish, schedule, a connection's tool marked requires_approval) still wait.",
    example: ['platform:update_article'],
  })

const automationFields = z
  .object({
    name: z.string().trim().min(1).max(200).refine(noNul, 'must not contain NUL'),
    instruction: z
      .string()
      .max(MAX_MESSAGE_CHARS)
      .refine((s) => s.trim().length > 0, 'must not be empty')
      .refine(noNul, 'must not contain NUL')
      .openapi({ description: 'What the assistant is asked each time, as a user message' }),
    schedule: z.string().min(9).max(100).optional().openapi({
      description: 'Shorthand for trigger {type: "schedule", schedule}: a 5-field cron expression in UTC',
      example: '0 8 * * 1-5',
    }),
    trigger: automationTriggerSchema.optional().openapi({
      description: 'A cron schedule or a platform event; give this or schedule, not both',
    }),
    enabled: z.boolean().optional(),
    unattended_tools: unattendedToolsSchema.optional(),
  })
  .strict()

const oneTrigger = (b: { schedule?: string; trigger?: unknown }) => !(b.schedule && b.trigger)

export const automationBody = automationFields
  .refine(oneTrigger, { message: 'give schedule or trigger, not both', path: ['trigger'] })
  .refine((b) => Boolean(b.schedule || b.trigger), {
    message: 'required: a schedule or a trigger',
    path: ['trigger'],
  })
  .openapi('AutomationInput', {
    example: {
      name: 'Morning draft',
      instruction:
        "Draft an article for the site Bistro Journal from yesterday's new source items, then post its title to #content on Slack.",
      schedule: '0 8 * * 1-5',
    },
  })

export const automationPatchBody = automationFields
  .partial()
  .strict()
  .refine(oneTrigger, { message: 'give schedule or trigger, not both', path: ['trigger'] })
  .openapi('AutomationUpdate', { example: { enabled: false } })

export const automationRunSchema = z
  .object({
    id: z.uuid(),
    slot: z.string().openapi({
      description: 'The scheduled time this run is for, or the time of the event that started it',
    }),
    event_id: z.string().nullable().openapi({ description: 'The event that started the run (evt_...)' }),
    event_type: z.string().nullable(),
    conversation_id: z.uuid().nullable(),
    turn_id: z.uuid().nullable(),
    status: z.enum(['pending', 'started', 'failed']).openapi({
      description:
        'pending: an event queued it for the next sweep; failed: the turn could not start (see error)',
    }),
    turn_status: z
      .string()
      .nullable()
      .openapi({ description: "The turn's status: completed, awaiting_approval, ..." }),
    error: z.string().nullable(),
    created_at: z.string(),
  })
  .openapi('AutomationRun')

export const automationSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    instruction: z.string(),
    schedule: z.string().nullable().openapi({ description: 'The cron schedule; null for an event trigger' }),
    trigger: automationTriggerSchema,
    enabled: z.boolean(),
    disabled_reason: z.enum(['creator_removed', 'creator_demoted']).nullable().openapi({
      description:
        'Why the platform turned it off: its creator left the tenant (creator_removed) or is no longer an owner or admin (creator_demoted). It runs as its creator, never as anyone else. Null while enabled or when a person turned it off.',
    }),
    next_run_at: z.string().nullable(),
    last_run_at: z.string().nullable(),
    last_run: automationRunSchema.nullable(),
    unattended_tools: unattendedToolsSchema,
    created_by: z.uuid().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi('Automation')

export type Automation = z.infer<typeof automationSchema>
export type AutomationRun = z.infer<typeof automationRunSchema>
export type AutomationInput = z.infer<typeof automationBody>
export type AutomationPatch = z.infer<typeof automationPatchBody>
