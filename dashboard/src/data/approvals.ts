/** The approvals inbox: tool calls that wait for an owner's or admin's decision. */
import { call, platform, type Schema } from '../api.ts'
import { useLoad } from './load.ts'

export type Approval = Schema<'AssistantApproval'>
export type ApprovalStatus = Approval['status']

export const listApprovals = (status: ApprovalStatus, limit: number) =>
  call(platform.GET('/v1/assistant/approvals', { params: { query: { status, limit } } }))
export const useApprovals = (status: ApprovalStatus) => useLoad(() => listApprovals(status, 50), [status])
export const decideApproval = (id: string, body: Schema<'ToolCallApproval'>) =>
  call(platform.POST('/v1/assistant/approvals/{call_id}', { params: { path: { call_id: id } }, body }))
