import { z } from '@hono/zod-openapi'
import { turnResultSchema } from '@shared/services/assistant/schema.ts'

/** What a route that runs a turn answers: the turn result as JSON, or its events. */
export const turnAnswer = {
  description: 'The turn result (JSON), or its events (text/event-stream)',
  content: {
    'application/json': { schema: turnResultSchema },
    'text/event-stream': { schema: z.string() },
  },
}
