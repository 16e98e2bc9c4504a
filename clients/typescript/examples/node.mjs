// Node (20.19+): lists the tenant's content with a platform API key.
//   API=http://127.0.0.1:54321 KEY=svc_live_… node clients/typescript/examples/node.mjs
import { createPlatformClient } from '../dist/index.js'

const client = createPlatformClient({ baseUrl: process.env.API, token: process.env.KEY })
const { data, error, response } = await client.GET('/v1/content', { params: { query: { limit: 5 } } })
if (error) {
  console.error(`${response.status} ${error.code}: ${error.message}`)
  process.exit(1)
}
const articles = data.data.filter((item) => item.object === 'article').map((item) => item.title)
console.log(JSON.stringify({ items: data.data.length, articles }))
