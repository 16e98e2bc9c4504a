/** `npm run client:generate`: regenerates the TypeScript client (clients/typescript) from the functions' OpenAPI documents. */
import { writeClient } from './lib/typescript-client.ts'

for (const file of await writeClient()) console.log(`wrote ${file}`)
