import { z } from '@hono/zod-openapi'
import { presentMessage } from '@shared/services/assistant/conversations.ts'
import { turnResultSchema } from '@shared/services/assistant/schema.ts'
import type { StartedTurn } from '@shared/services/assistant/turn/index.ts'

/** What a route that runs a turn answers: the turn result as JSON, or its events. */
export const turnAnswer = {
  description: 'The turn result (JSON), or its events (text/event-stream)',
  content: {
    'application/json': { schema: turnResultSchema },
    'text/event-stream': { schema: z.string() },
  },
}

/** The stream's first event: the turn and the user message it answers. */
export const turnStarted = (conversationId: string, started: StartedTurn) => ({
  event: 'turn.started',
  data: {
    turn_id: started.turn.id,
    conversation_id: conversationId,
    message: presentMessage(started.userMessage, []),
  },
})
