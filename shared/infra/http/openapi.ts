import { z } from '@hono/zod-openapi'

export const errorSchema = z
  .object({
    error: z.string().openapi({ example: 'Unauthorized' }),
    code: z.string().openapi({ example: 'AUTH_REQUIRED' }),
    message: z.string(),
    retryAfter: z.number().int().optional(),
    details: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
  })
  .openapi('Error')

/** Standard error responses for a route's OpenAPI description. */
export function errorResponses(...statuses: number[]) {
  const text: Record<number, string> = {
    400: 'Invalid request (VALIDATION_ERROR)',
    401: 'Missing or invalid credentials (AUTH_REQUIRED)',
    403: 'The credential lacks access (INSUFFICIENT_PERMISSIONS)',
    404: 'No such record in this tenant (NOT_FOUND)',
    409: 'Conflicts with an existing record (CONFLICT)',
    413: 'Body too large (PAYLOAD_TOO_LARGE)',
    422: 'The request could not be carried out (UNPROCESSABLE)',
    429: 'Rate limit exceeded (RATE_LIMITED)',
  }
  return Object.fromEntries(
    statuses.map((s) => [
      s,
      { description: text[s] ?? 'Error', content: { 'application/json': { schema: errorSchema } } },
    ]),
  )
}

/** A JSON body or response for a route definition: `responses: { 200: jsonContent(schema, 'The key') }`. */
export const jsonContent = <T extends z.ZodType>(schema: T, description: string) => ({
  description,
  content: { 'application/json': { schema } },
})

/** The `{id}` path parameter of every single-record route. */
export const idParam = z.object({ id: z.uuid().openapi({ param: { name: 'id', in: 'path' } }) })
