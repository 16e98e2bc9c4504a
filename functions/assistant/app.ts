import type { FunctionDeps } from '@shared/infra/deps.ts'
import { createFunctionApp } from '@shared/infra/http/function-app.ts'
import { registerDecideApproval } from './routes/approvals/decide.ts'
import { registerListApprovals } from './routes/approvals/list.ts'
import { registerAutomations } from './routes/automations/routes.ts'
import { registerApproveToolCall } from './routes/conversations/approve.ts'
import { registerCreateConversation } from './routes/conversations/create.ts'
import { registerDeleteConversation } from './routes/conversations/delete.ts'
import { registerGetConversation } from './routes/conversations/get.ts'
import { registerListConversations } from './routes/conversations/list.ts'
import { registerPostMessage } from './routes/conversations/post-message.ts'
import { registerResumeTurnStream } from './routes/conversations/stream.ts'
import { registerGetSettings, registerPutSettings } from './routes/settings.ts'
import { registerSweep } from './routes/sweep.ts'

export const functionName = 'assistant'

/** The tenant's AI assistant (/v1/assistant): conversations, turns with tools, approvals, the sweep. */
export function createApp(deps: FunctionDeps) {
  const app = createFunctionApp(functionName, deps, "The tenant's AI assistant")
  for (const register of [
    registerCreateConversation,
    registerListConversations,
    registerGetConversation,
    registerDeleteConversation,
    registerPostMessage,
    registerApproveToolCall,
    registerListApprovals,
    registerDecideApproval,
    registerResumeTurnStream,
    registerGetSettings,
    registerPutSettings,
    registerAutomations,
    registerSweep,
  ])
    register(app)
  return app
}
