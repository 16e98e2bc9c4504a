import { z } from '@hono/zod-openapi'
import { pageQuery } from '@shared/infra/pagination.ts'
import { articleRefSchema } from './schema.ts'

const approvalStatuses = ['pending', 'approved', 'denied', 'expired'] as const
export type ApprovalStatus = (typeof approvalStatuses)[number]

export const approvalQuery = pageQuery.extend({
  status: z
    .enum(approvalStatuses)
    .default('pending')
    .openapi({ description: 'pending (the default), approved, denied or expired' }),
})

const approvalSchema = z
  .object({
    id: z.uuid().openapi({ description: 'The tool call; decide it with POST /approvals/{id}' }),
    status: z.enum(approvalStatuses),
    tool: z.string().openapi({ example: 'slack:post_message' }),
    arguments: z.record(z.string(), z.unknown()),
    conversation_id: z.uuid(),
    conversation_title: z.string(),
    turn_id: z.uuid(),
    triggered_by: z.enum(['assistant', 'automation']),
    automation: z
      .object({ id: z.uuid(), name: z.string() })
      .nullable()
      .openapi({ description: 'The automation whose run asked, or null for a conversation' }),
    requested_by: z.uuid().nullable().openapi({ description: 'The member the turn runs as' }),
    created_at: z.string(),
    expires_at: z.string(),
    decided_by: z.uuid().nullable().openapi({ description: 'Null while pending and when it expired' }),
    decided_at: z.string().nullable().openapi({ description: 'When it was decided or expired' }),
    reason: z.string().nullable().openapi({ description: 'What the model was told on a denial or expiry' }),
    article: articleRefSchema.optional(),
  })
  .openapi('AssistantApproval')

export const approvalListSchema = z
  .object({ data: z.array(approvalSchema), next_cursor: z.string().nullable() })
  .openapi('AssistantApprovalList')

export type Approval = z.infer<typeof approvalSchema>
