// Deno: lists the tenant's content with a platform API key.
//   API=http://127.0.0.1:54321 KEY=svc_live_… npx deno run --allow-net --allow-env \
//     --config clients/typescript/deno.json clients/typescript/examples/deno.ts
import { createPlatformClient } from '../src/index.ts'

const env = (name: string) =>
  (globalThis as { Deno?: { env: { get(n: string): string | undefined } } }).Deno?.env.get(name)
const client = createPlatformClient({ baseUrl: env('API') ?? 'http://127.0.0.1:54321', token: env('KEY') })
const { data, error, response } = await client.GET('/v1/content', { params: { query: { limit: 5 } } })
if (error) throw new Error(`${response.status} ${error.code}: ${error.message}`)
const articles = data.data.filter((item) => item.object === 'article').map((item) => item.title)
console.log(JSON.stringify({ items: data.data.length, articles }))
