/**
 * A typed client for the Tenant Platform API: openapi-fetch over the types openapi-typescript
 * generates from the platform's OpenAPI document (./schema.ts, `npm run client:generate` in the
 * platform's repository). Paths, parameters, bodies and answers are checked by the compiler.
 */
import createClient from 'openapi-fetch';
/** A client for the platform at `baseUrl`, authenticated with `token` when one is given. */
export function createPlatformClient({ baseUrl, token, ...options }) {
    const client = createClient({ baseUrl: baseUrl.replace(/\/+$/, ''), ...options });
    if (token !== undefined)
        client.use(bearer(token));
    return client;
}
function bearer(token) {
    return {
        async onRequest({ request }) {
            request.headers.set('authorization', `Bearer ${typeof token === 'function' ? await token() : token}`);
            return request;
        },
    };
}
