import type { FunctionDeps } from '@shared/infra/deps.ts'
import { createFunctionApp } from '@shared/infra/http/function-app.ts'
import { registerDecideApproval } from './routes/approvals/decide.ts'
import { registerListApprovals } from './routes/approvals/list.ts'
import { registerCreateAutomation } from './routes/automations/create.ts'
import { registerDeleteAutomation } from './routes/automations/delete.ts'
import { registerListAutomations } from './routes/automations/list.ts'
import { registerListAutomationRuns } from './routes/automations/runs.ts'
import { registerUpdateAutomation } from './routes/automations/update.ts'
import { registerApproveToolCall } from './routes/conversations/approve.ts'
import { registerCancelTurn } from './routes/conversations/cancel.ts'
import { registerCreateConversation } from './routes/conversations/create.ts'
import { registerDeleteConversation } from './routes/conversations/delete.ts'
import { registerEditMessage } from './routes/conversations/edit-message.ts'
import { registerGetConversation } from './routes/conversations/get.ts'
import { registerListConversations } from './routes/conversations/list.ts'
import { registerPostMessage } from './routes/conversations/post-message.ts'
import { registerRegenerate } from './routes/conversations/regenerate.ts'
import { registerRenameConversation } from './routes/conversations/rename.ts'
import { registerResumeTurnStream } from './routes/conversations/stream.ts'
import { registerStartEventRuns } from './routes/jobs/start-event-runs.ts'
import { registerGetSettings } from './routes/settings/get.ts'
import { registerPutSettings } from './routes/settings/put.ts'
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
    registerCancelTurn,
    registerRegenerate,
    registerEditMessage,
    registerRenameConversation,
    registerGetSettings,
    registerPutSettings,
    registerListAutomations,
    registerCreateAutomation,
    registerUpdateAutomation,
    registerDeleteAutomation,
    registerListAutomationRuns,
    registerSweep,
    registerStartEventRuns,
  ])
    register(app)
  return app
}
