/** The workspace's members (and the user's workspaces, for the shell). */
import { call, platform, type Schema } from '../api.ts'
import { useLoad } from './load.ts'

export type Member = Schema<'Member'>

export const useMembers = () => useLoad(() => call(platform.GET('/api/tenants/current/members')))
