import { z } from '@hono/zod-openapi'
import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses, idParam, jsonContent } from '@shared/infra/http/openapi.ts'
import { memberOrKey, ownerOrAdminOrKey } from '@shared/infra/http/route-auth.ts'
import {
  createAutomation,
  deleteAutomation,
  listAutomationRuns,
  listAutomations,
  updateAutomation,
} from '@shared/services/assistant/automations.ts'
import {
  automationBody,
  automationPatchBody,
  automationRunSchema,
  automationSchema,
} from '@shared/services/assistant/schema.ts'

/** Automations: scheduled assistant turns (docs/assistant.md). One file: five small routes. */

const listSchema = z.object({ data: z.array(automationSchema) }).openapi('AutomationList')
const runListSchema = z.object({ data: z.array(automationRunSchema) }).openapi('AutomationRunList')

export const listRoute = defineRoute(memberOrKey('assistant:invoke'), {
  method: 'get',
  path: '/automations',
  summary: "The tenant's automations with their last and next run",
  responses: { 200: jsonContent(listSchema, 'Automations'), ...errorResponses(401, 403, 429) },
})

export const createRoute = defineRoute(ownerOrAdminOrKey('assistant:invoke'), {
  method: 'post',
  path: '/automations',
  summary: 'Save an instruction the assistant runs on a schedule (owners and admins)',
  description:
    'Each run is an assistant turn in a conversation of its own, as the member who saved it, with triggered_by = automation in the usage log. A tool that needs approval is not run unattended: the turn waits for an owner or admin.',
  request: { body: { content: { 'application/json': { schema: automationBody } }, required: true } },
  responses: {
    201: jsonContent(automationSchema, 'The automation'),
    ...errorResponses(400, 401, 403, 413, 429),
  },
})

export const updateRoute = defineRoute(ownerOrAdminOrKey('assistant:invoke'), {
  method: 'patch',
  path: '/automations/{id}',
  summary: 'Change, pause (enabled: false) or resume an automation',
  request: {
    params: idParam,
    body: { content: { 'application/json': { schema: automationPatchBody } }, required: true },
  },
  responses: {
    200: jsonContent(automationSchema, 'The automation'),
    ...errorResponses(400, 401, 403, 404, 413, 429),
  },
})

export const deleteRoute = defineRoute(ownerOrAdminOrKey('assistant:invoke'), {
  method: 'delete',
  path: '/automations/{id}',
  summary: 'Delete an automation (its runs go; their conversations stay)',
  request: { params: idParam },
  responses: { 204: { description: 'Deleted' }, ...errorResponses(400, 401, 403, 404, 429) },
})

export const runsRoute = defineRoute(memberOrKey('assistant:invoke'), {
  method: 'get',
  path: '/automations/{id}/runs',
  summary: "An automation's runs, newest first, each with its conversation and turn status",
  request: { params: idParam },
  responses: { 200: jsonContent(runListSchema, 'Runs'), ...errorResponses(400, 401, 403, 404, 429) },
})

export const registerAutomations = (app: App) => {
  app.openapi(listRoute, async (c) => c.json(await listAutomations(serviceContext(c)), 200))
  app.openapi(createRoute, async (c) =>
    c.json(await createAutomation(serviceContext(c), c.req.valid('json')), 201),
  )
  app.openapi(updateRoute, async (c) =>
    c.json(await updateAutomation(serviceContext(c), c.req.valid('param').id, c.req.valid('json')), 200),
  )
  app.openapi(deleteRoute, async (c) => {
    await deleteAutomation(serviceContext(c), c.req.valid('param').id)
    return c.body(null, 204)
  })
  app.openapi(runsRoute, async (c) =>
    c.json(await listAutomationRuns(serviceContext(c), c.req.valid('param').id), 200),
  )
}
