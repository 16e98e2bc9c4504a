/** The month's use against the plan's quotas, by day, and the alerts on it. */
import { call, platform, type Schema } from '../api.ts'
import { useLoad } from './load.ts'

export type Usage = Schema<'Usage'>
export type ProductUsage = Schema<'ProductUsage'>
export type DailyUsage = Schema<'DailyUsage'>

/** `period`: a month, 2026-12 (none: this month). */
export const useUsage = (period?: string) =>
  useLoad(() => call(platform.GET('/api/usage', { params: { query: { period } } })), [period])
export const useDailyUsage = (period: string) =>
  useLoad(() => call(platform.GET('/api/usage/daily', { params: { query: { period } } })), [period])

export const useUsageAlerts = () => useLoad(() => call(platform.GET('/api/usage-alerts')))
export const createUsageAlert = (body: Schema<'CreateUsageAlert'>) =>
  call(platform.POST('/api/usage-alerts', { body }))
export const deleteUsageAlert = (id: string) =>
  call(platform.DELETE('/api/usage-alerts/{id}', { params: { path: { id } } }))
