/** The user's workspaces, the workspace's members and its invitations. */
import { call, platform, type Schema } from '../api.ts'
import { useLoad } from './load.ts'

export type Tenant = Schema<'Tenant'>
export type Member = Schema<'Member'>
export type Invitation = Schema<'Invitation'>
export type Role = Member['role']

// ---- Workspaces

export const listTenants = () => call(platform.GET('/api/tenants'))
export const createTenant = (name: string) => call(platform.POST('/api/tenants', { body: { name } }))
/** Renames the active workspace (owners and admins). */
export const renameTenant = (name: string) => call(platform.PATCH('/api/tenants/current', { body: { name } }))
/** Makes a workspace the active one; a refreshed session's token then names it. */
export const switchTenant = (tenant_id: string) =>
  call(platform.POST('/api/tenants/active', { body: { tenant_id } }))

// ---- Members

export const listMembers = () => call(platform.GET('/api/tenants/current/members'))
export const useMembers = () => useLoad(listMembers)
export const setMemberRole = (user_id: string, role: Role) =>
  call(
    platform.PATCH('/api/tenants/current/members/{user_id}', {
      params: { path: { user_id } },
      body: { role },
    }),
  )
export const removeMember = (user_id: string) =>
  call(platform.DELETE('/api/tenants/current/members/{user_id}', { params: { path: { user_id } } }))

// ---- Invitations

export const listInvitations = () => call(platform.GET('/api/invitations'))
export const invite = (body: Schema<'CreateInvitation'>) => call(platform.POST('/api/invitations', { body }))
export const revokeInvitation = (id: string) =>
  call(platform.DELETE('/api/invitations/{id}', { params: { path: { id } } }))
/** What an invitation's link offers (no membership needed to read it). */
export const useInvitationPreview = (token: string) =>
  useLoad(() => call(platform.GET('/api/invitations/accept', { params: { query: { token } } })), [token])
export const acceptInvitation = (token: string) =>
  call(platform.POST('/api/invitations/accept', { body: { token } }))
