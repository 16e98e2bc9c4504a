import { z } from '@hono/zod-openapi'

/** The article and one of its revisions. */
export const revisionParams = z.object({
  id: z.uuid().openapi({ param: { name: 'id', in: 'path' } }),
  revision_id: z.uuid().openapi({ param: { name: 'revision_id', in: 'path' } }),
})
