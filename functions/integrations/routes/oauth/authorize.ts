import { setBindingCookie } from '@functions/integrations/binding-cookie.ts'
import type { App } from '@shared/infra/http/app-env.ts'
import { defineRoute, serviceContext } from '@shared/infra/http/define-route.ts'
import { errorResponses } from '@shared/infra/http/openapi.ts'
import { member } from '@shared/infra/http/route-auth.ts'
import { startAuthorization } from '@shared/services/integrations/oauth-flow.ts'
import { authorizeResponse, slugParam } from '@shared/services/integrations/schema.ts'

export const route = defineRoute(member, {
  method: 'get',
  path: '/{slug}/authorize',
  summary: 'Start the OAuth flow',
  description:
    "Start the OAuth flow: redirects to the provider's consent screen (JSON with Accept: application/json); sets the HttpOnly cookie that binds the flow to this browser",
  request: { params: slugParam },
  responses: {
    200: {
      description: 'The consent-screen address',
      content: { 'application/json': { schema: authorizeResponse } },
    },
    302: { description: "Redirect to the provider's consent screen" },
    ...errorResponses(400, 401, 403, 404, 422, 429),
  },
})

export const registerAuthorize = (app: App) =>
  app.openapi(route, async (c) => {
    const { binding, ...started } = await startAuthorization(serviceContext(c), c.req.valid('param').slug)
    setBindingCookie(c, binding)
    if ((c.req.header('accept') ?? '').includes('application/json')) return c.json(started, 200)
    c.header('Cache-Control', 'no-store')
    return c.redirect(started.authorization_url, 302)
  })
