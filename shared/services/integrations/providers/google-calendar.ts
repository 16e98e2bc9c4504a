// biome-ignore-all lint/suspicious/noExplicitAny: provider JSON is read field by field, each checked where it matters
import { z } from 'zod'
import { enc, need } from './api.ts'
import { defineGoogleProvider } from './google.ts'
import { formatted, providerTool } from './provider.ts'

const calendarId = z.string().describe('Calendar id; the primary calendar when absent')

// Google Calendar API v3: https://developers.google.com/calendar/api/v3/reference
export const googleCalendar = defineGoogleProvider({
  integration_id: 'f854db29-76ce-4c52-a40f-14c872408db3',
  slug: 'google-calendar',
  name: 'Google Calendar',
  kind: 'calendar',
  category: 'office-suite',
  capabilities: ['read events', 'create events'],
  scopes: { 'calendar.events': 'calendar.events' },
  account: { path: '/calendar/v3/calendars/primary', id: 'id', name: 'summary' },
  tools: [
    providerTool({
      name: 'list_events',
      action: 'read',
      requiredScopes: ['calendar.events'],
      description: 'List events in a time range.',
      input: z.strictObject({
        calendar_id: calendarId.optional(),
        time_min: formatted('date-time', 'Start (RFC 3339)').optional(),
        time_max: formatted('date-time', 'End (RFC 3339)').optional(),
      }),
      run: async (api, a) => {
        const r = await api({
          method: 'GET',
          path: `/calendar/v3/calendars/${enc(a.calendar_id ?? 'primary')}/events`,
          query: {
            timeMin: a.time_min,
            timeMax: a.time_max,
            singleEvents: true,
            orderBy: 'startTime',
            maxResults: 250,
          },
        })
        return {
          events: (need(r.items, 'items') as any[]).map((e) => ({
            id: e.id,
            summary: e.summary ?? null,
            start: e.start?.dateTime ?? e.start?.date ?? null,
            end: e.end?.dateTime ?? e.end?.date ?? null,
            html_link: e.htmlLink ?? null,
          })),
        }
      },
    }),
    providerTool({
      name: 'create_event',
      action: 'write',
      requiredScopes: ['calendar.events'],
      description: 'Create an event.',
      input: z.strictObject({
        calendar_id: calendarId.optional(),
        summary: z.string().describe('Title'),
        start: formatted('date-time', 'Start (RFC 3339)'),
        end: formatted('date-time', 'End (RFC 3339)'),
        attendees: z.array(z.string()).describe('Attendee e-mail addresses').optional(),
      }),
      run: async (api, a) => {
        const r = await api({
          method: 'POST',
          path: `/calendar/v3/calendars/${enc(a.calendar_id ?? 'primary')}/events`,
          json: {
            summary: a.summary,
            start: { dateTime: a.start },
            end: { dateTime: a.end },
            ...(a.attendees && { attendees: (a.attendees as string[]).map((email) => ({ email })) }),
          },
        })
        return { id: need(r.id, 'id'), html_link: r.htmlLink ?? null, status: r.status ?? null }
      },
    }),
  ],
})
