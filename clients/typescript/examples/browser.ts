// A browser page: bundle with esbuild, then load it from a page of an origin the platform allows
// (CORS_ORIGINS; locally any localhost origin).
//   npx esbuild clients/typescript/examples/browser.ts --bundle --format=esm --outfile=dist-example/app.js
// The page signs the user in (supabase-js, say) and passes the access token.
import { createPlatformClient, type Schema } from '../src/index.ts'

export async function listApiKeys(baseUrl: string, accessToken: string): Promise<Schema<'ApiKey'>[]> {
  const client = createPlatformClient({ baseUrl, token: accessToken })
  const { data, error } = await client.GET('/api/api-keys')
  if (error) throw new Error(`${error.code}: ${error.message}`)
  return data.data
}
