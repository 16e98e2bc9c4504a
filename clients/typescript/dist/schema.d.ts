export interface paths {
    "/api/api-keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the tenant's API keys (never a secret)
         * @description Supabase address: `GET /functions/v1/api-keys`
         */
        get: {
            parameters: {
                query?: {
                    /** @description Page size (1-100) */
                    limit?: number;
                    /** @description next_cursor from the previous page */
                    cursor?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page of keys, newest first */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["ApiKey"][];
                            next_cursor: string | null;
                        };
                    };
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Create an API key (the secret is shown once)
         * @description Supabase address: `POST /functions/v1/api-keys`
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["CreateApiKey"];
                };
            };
            responses: {
                /** @description Created */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["CreatedApiKey"];
                    };
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large (PAYLOAD_TOO_LARGE) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/request-log": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The tenant's API requests, newest first, by key, status and path (owners and admins: all; a member: their own). Written within a second of the answer, kept REQUEST_LOG_RETENTION_DAYS (30 by default)
         * @description Supabase address: `GET /functions/v1/api-keys/request-log`
         */
        get: {
            parameters: {
                query?: {
                    /** @description Page size (1-100) */
                    limit?: number;
                    /** @description next_cursor from the previous page */
                    cursor?: string;
                    /** @description Only this key's requests */
                    key_id?: string;
                    /** @description A status (429) or a class (2xx, 4xx, 5xx) */
                    status?: string;
                    /** @description Paths that start with this (/v1/content) */
                    path?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page of requests, newest first */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["RequestLogEntry"][];
                            next_cursor: string | null;
                        };
                    };
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/api-keys/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get one API key
         * @description Supabase address: `GET /functions/v1/api-keys/{id}`
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The key */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiKey"];
                    };
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No such record in this tenant (NOT_FOUND) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/api-keys/{id}/requests": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One key's latest requests and its last 24 hours by the hour (from the request log)
         * @description Supabase address: `GET /functions/v1/api-keys/{id}/requests`
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The key's recent requests and hourly counts */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["KeyRequests"];
                    };
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No such record in this tenant (NOT_FOUND) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/api-keys/{id}/revoke": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Revoke an API key (takes effect at once; idempotent)
         * @description Supabase address: `POST /functions/v1/api-keys/{id}/revoke`
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The revoked key */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiKey"];
                    };
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No such record in this tenant (NOT_FOUND) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/content": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the tenant's sites and articles (oldest or newest first, keyset pagination)
         * @description Needs a user access token or a platform API key with the scope content:read; a published-only key lists sites and published articles only. With an API key, metered as one Content API request (past the Free quota: 429 QUOTA_EXCEEDED); a signed-in member is not metered. Answers with an ETag; a request with If-None-Match naming it gets 304 Not Modified and no body.
         *
         *     Supabase address: `GET /functions/v1/content`
         */
        get: {
            parameters: {
                query?: {
                    /** @description Page size (1-100) */
                    limit?: number;
                    /** @description next_cursor from the previous page */
                    cursor?: string;
                    /** @description Only sites or only articles */
                    type?: "site" | "article";
                    /** @description The site, and the articles of that site */
                    site_id?: string;
                    /** @description Articles with this status */
                    status?: "draft" | "scheduled" | "published";
                    /** @description Articles carrying the tag with this slug */
                    tag?: string;
                    /** @description Articles by this author (a user id) */
                    author?: string;
                    /** @description requested: only drafts submitted for review (review_requested_at set) */
                    review?: "requested";
                    /** @description Articles published at or after */
                    published_since?: string;
                    /** @description Articles published before */
                    published_before?: string;
                    /** @description Words that all appear in a site's name or an article's title */
                    q?: string;
                    /** @description Oldest first (the default) or newest first */
                    order?: "oldest" | "newest";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page of content */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["ContentItem"][];
                            next_cursor: string | null;
                        };
                    };
                };
                /** @description Not modified (If-None-Match) */
                304: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/content/articles/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One article with its body (content:read; a published-only key sees published articles only)
         * @description With an API key, metered as one Content API request (past the Free quota: 429 QUOTA_EXCEEDED); a signed-in member is not metered. Answers with an ETag; a request with If-None-Match naming it gets 304 Not Modified and no body.
         *
         *     Supabase address: `GET /functions/v1/content/articles/{id}`
         */
        get: {
            parameters: {
                query?: {
                    /** @description The body as markdown (the default, field body), html (sanitized, field html) and/or plaintext (field plaintext), comma-separated */
                    formats?: string;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The article */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Article"];
                    };
                };
                /** @description Not modified (If-None-Match) */
                304: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No such record in this tenant (NOT_FOUND) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /**
         * Delete an article (content:write); event content.updated
         * @description With an API key, metered as one Content API request (past the Free quota: 429 QUOTA_EXCEEDED); a signed-in member is not metered.
         *
         *     Supabase address: `DELETE /functions/v1/content/articles/{id}`
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Deleted */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No such record in this tenant (NOT_FOUND) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        /**
         * Change any of an article's fields (content:write); event content.updated and a new revision when something changed. A slug another article of the site holds is 409 naming it
         * @description With an API key, metered as one Content API request (past the Free quota: 429 QUOTA_EXCEEDED); a signed-in member is not metered.
         *
         *     Supabase address: `PATCH /functions/v1/content/articles/{id}`
         */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["UpdateArticle"];
                };
            };
            responses: {
                /** @description The article */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Article"];
                    };
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No such record in this tenant (NOT_FOUND) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Conflicts with an existing record (CONFLICT) */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large (PAYLOAD_TOO_LARGE) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/v1/content/sites": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Add a site (content:write); event site.created. The slug is made from the name when absent; a taken slug is 409
         * @description With an API key, metered as one Content API request (past the Free quota: 429 QUOTA_EXCEEDED); a signed-in member is not metered.
         *
         *     Supabase address: `POST /functions/v1/content/sites`
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["CreateSite"];
                };
            };
            responses: {
                /** @description Created */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Site"];
                    };
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Conflicts with an existing record (CONFLICT) */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large (PAYLOAD_TOO_LARGE) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/content/sites/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One site with the counts of what it holds: what deleting it removes (content:read)
         * @description With an API key, metered as one Content API request (past the Free quota: 429 QUOTA_EXCEEDED); a signed-in member is not metered. Answers with an ETag; a request with If-None-Match naming it gets 304 Not Modified and no body. A published-only key gets the site without its counts.
         *
         *     Supabase address: `GET /functions/v1/content/sites/{id}`
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The site */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SiteDetail"];
                    };
                };
                /** @description Not modified (If-None-Match) */
                304: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No such record in this tenant (NOT_FOUND) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /**
         * Remove a site and its articles (content:write); event site.deleted
         * @description With an API key, metered as one Content API request (past the Free quota: 429 QUOTA_EXCEEDED); a signed-in member is not metered.
         *
         *     Supabase address: `DELETE /functions/v1/content/sites/{id}`
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Deleted */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No such record in this tenant (NOT_FOUND) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        /**
         * Change a site's name, slug or domain (content:write; domain null removes it); a slug another site of the tenant holds is 409
         * @description With an API key, metered as one Content API request (past the Free quota: 429 QUOTA_EXCEEDED); a signed-in member is not metered.
         *
         *     Supabase address: `PATCH /functions/v1/content/sites/{id}`
         */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    /**
                     * @example {
                     *       "name": "Engineering blog",
                     *       "domain": null
                     *     }
                     */
                    "application/json": components["schemas"]["UpdateSite"];
                };
            };
            responses: {
                /** @description The site */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Site"];
                    };
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No such record in this tenant (NOT_FOUND) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Conflicts with an existing record (CONFLICT) */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large (PAYLOAD_TOO_LARGE) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/v1/content/articles": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create a draft article in a site (content:write); event content.updated. The slug is made from the title when absent; a slug another article of the site holds is 409 naming it
         * @description With an API key, metered as one Content API request (past the Free quota: 429 QUOTA_EXCEEDED); a signed-in member is not metered.
         *
         *     Supabase address: `POST /functions/v1/content/articles`
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["CreateArticle"];
                };
            };
            responses: {
                /** @description Created */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Article"];
                    };
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No such record in this tenant (NOT_FOUND) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Conflicts with an existing record (CONFLICT) */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large (PAYLOAD_TOO_LARGE) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/content/articles/{id}/publish": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Publish an article (content:write); event content.published. Publishing again changes nothing
         * @description With an API key, metered as one Content API request (past the Free quota: 429 QUOTA_EXCEEDED); a signed-in member is not metered.
         *
         *     Supabase address: `POST /functions/v1/content/articles/{id}/publish`
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The published article */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Article"];
                    };
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No such record in this tenant (NOT_FOUND) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/content/articles/{id}/unpublish": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Take a published or scheduled article back to draft (content:write); event content.unpublished. A draft is returned as is
         * @description With an API key, metered as one Content API request (past the Free quota: 429 QUOTA_EXCEEDED); a signed-in member is not metered.
         *
         *     Supabase address: `POST /functions/v1/content/articles/{id}/unpublish`
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The article, now a draft */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Article"];
                    };
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No such record in this tenant (NOT_FOUND) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/content/articles/{id}/sources": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The scraped items a generated article was written from (content:read); empty for one written by hand
         * @description With an API key, metered as one Content API request (past the Free quota: 429 QUOTA_EXCEEDED); a signed-in member is not metered.
         *
         *     Supabase address: `GET /functions/v1/content/articles/{id}/sources`
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The source items */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ArticleSources"];
                    };
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No such record in this tenant (NOT_FOUND) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/content/sites/{site_id}/articles/{slug}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One article by its slug in a site (content:read); an old slug of a published article answers 301 to its new one
         * @description With an API key, metered as one Content API request (past the Free quota: 429 QUOTA_EXCEEDED); a signed-in member is not metered. Answers with an ETag; a request with If-None-Match naming it gets 304 Not Modified and no body. A published-only key sees published articles only: anything else is 404.
         *
         *     Supabase address: `GET /functions/v1/content/sites/{site_id}/articles/{slug}`
         */
        get: {
            parameters: {
                query?: {
                    /** @description The body as markdown (the default, field body), html (sanitized, field html) and/or plaintext (field plaintext), comma-separated */
                    formats?: string;
                    /** @description seo adds the field seo: canonical_url, alternates (the article on the site, the site's public feeds) and json_ld, a schema.org Article for the page's <head> */
                    include?: "seo";
                };
                header?: never;
                path: {
                    site_id: string;
                    slug: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The article */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ArticleBySlug"];
                    };
                };
                /** @description The slug was this published article's: Location gives its address now */
                301: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ArticleMoved"];
                    };
                };
                /** @description Not modified (If-None-Match) */
                304: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No such record in this tenant (NOT_FOUND) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/content/articles/{id}/schedule": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Schedule a draft, or reschedule a scheduled article (content:write); event content.scheduled. publish_at must lie in the future (400 otherwise); a published article is 409
         * @description With an API key, metered as one Content API request (past the Free quota: 429 QUOTA_EXCEEDED); a signed-in member is not metered. The article is published within a minute of publish_at, once, with content.published.
         *
         *     Supabase address: `POST /functions/v1/content/articles/{id}/schedule`
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["ScheduleArticle"];
                };
            };
            responses: {
                /** @description The scheduled article */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Article"];
                    };
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No such record in this tenant (NOT_FOUND) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Conflicts with an existing record (CONFLICT) */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large (PAYLOAD_TOO_LARGE) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        /**
         * Cancel a schedule (content:write): the article goes back to draft, event content.unpublished. A draft is returned as is; a published article is 409
         * @description With an API key, metered as one Content API request (past the Free quota: 429 QUOTA_EXCEEDED); a signed-in member is not metered.
         *
         *     Supabase address: `DELETE /functions/v1/content/articles/{id}/schedule`
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The article, a draft */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Article"];
                    };
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No such record in this tenant (NOT_FOUND) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Conflicts with an existing record (CONFLICT) */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/content/articles/{id}/submit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Submit a draft for review (content:write): sets review_requested_at, which publishing or scheduling clears; event content.updated. A contributor submits its own drafts; a published or scheduled article is 409
         * @description With an API key, metered as one Content API request (past the Free quota: 429 QUOTA_EXCEEDED); a signed-in member is not metered.
         *
         *     Supabase address: `POST /functions/v1/content/articles/{id}/submit`
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The article, submitted for review */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Article"];
                    };
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No such record in this tenant (NOT_FOUND) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Conflicts with an existing record (CONFLICT) */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/content/articles/{id}/revisions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * An article's revisions, newest first: one per save, the newest 50 kept (content:read; not a published-only key)
         * @description With an API key, metered as one Content API request (past the Free quota: 429 QUOTA_EXCEEDED); a signed-in member is not metered. Answers with an ETag; a request with If-None-Match naming it gets 304 Not Modified and no body.
         *
         *     Supabase address: `GET /functions/v1/content/articles/{id}/revisions`
         */
        get: {
            parameters: {
                query?: {
                    /** @description Page size (1-100) */
                    limit?: number;
                    /** @description next_cursor from the previous page */
                    cursor?: string;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page of revisions */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ArticleRevisionList"];
                    };
                };
                /** @description Not modified (If-None-Match) */
                304: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No such record in this tenant (NOT_FOUND) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/content/articles/{id}/revisions/{revision_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One revision with all its fields (content:read; not a published-only key)
         * @description With an API key, metered as one Content API request (past the Free quota: 429 QUOTA_EXCEEDED); a signed-in member is not metered. Answers with an ETag; a request with If-None-Match naming it gets 304 Not Modified and no body.
         *
         *     Supabase address: `GET /functions/v1/content/articles/{id}/revisions/{revision_id}`
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    revision_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The revision */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ArticleRevision"];
                    };
                };
                /** @description Not modified (If-None-Match) */
                304: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No such record in this tenant (NOT_FOUND) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/content/articles/{id}/revisions/{revision_id}/restore": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Restore a revision (content:write): its fields become the article's again, as a new revision; event content.updated. A slug taken since is 409
         * @description With an API key, metered as one Content API request (past the Free quota: 429 QUOTA_EXCEEDED); a signed-in member is not metered.
         *
         *     Supabase address: `POST /functions/v1/content/articles/{id}/revisions/{revision_id}/restore`
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    revision_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The article */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Article"];
                    };
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No such record in this tenant (NOT_FOUND) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Conflicts with an existing record (CONFLICT) */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/content/tags": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the tenant's tags, oldest first (content:read; a published-only key may)
         * @description With an API key, metered as one Content API request (past the Free quota: 429 QUOTA_EXCEEDED); a signed-in member is not metered. Answers with an ETag; a request with If-None-Match naming it gets 304 Not Modified and no body.
         *
         *     Supabase address: `GET /functions/v1/content/tags`
         */
        get: {
            parameters: {
                query?: {
                    /** @description Page size (1-100) */
                    limit?: number;
                    /** @description next_cursor from the previous page */
                    cursor?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page of tags */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["TagList"];
                    };
                };
                /** @description Not modified (If-None-Match) */
                304: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Create a tag (content:write); its slug is made from the name when absent. 409 when the slug is taken
         * @description With an API key, metered as one Content API request (past the Free quota: 429 QUOTA_EXCEEDED); a signed-in member is not metered.
         *
         *     Supabase address: `POST /functions/v1/content/tags`
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["CreateTag"];
                };
            };
            responses: {
                /** @description The tag */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Tag"];
                    };
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Conflicts with an existing record (CONFLICT) */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large (PAYLOAD_TOO_LARGE) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/content/tags/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One tag (content:read)
         * @description With an API key, metered as one Content API request (past the Free quota: 429 QUOTA_EXCEEDED); a signed-in member is not metered. Answers with an ETag; a request with If-None-Match naming it gets 304 Not Modified and no body.
         *
         *     Supabase address: `GET /functions/v1/content/tags/{id}`
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The tag */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Tag"];
                    };
                };
                /** @description Not modified (If-None-Match) */
                304: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No such record in this tenant (NOT_FOUND) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /**
         * Delete a tag (content:write); the articles that carried it keep their other tags
         * @description With an API key, metered as one Content API request (past the Free quota: 429 QUOTA_EXCEEDED); a signed-in member is not metered.
         *
         *     Supabase address: `DELETE /functions/v1/content/tags/{id}`
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Deleted */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No such record in this tenant (NOT_FOUND) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        /**
         * Rename a tag or change its slug (content:write); 409 when the slug is taken
         * @description With an API key, metered as one Content API request (past the Free quota: 429 QUOTA_EXCEEDED); a signed-in member is not metered.
         *
         *     Supabase address: `PATCH /functions/v1/content/tags/{id}`
         */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["UpdateTag"];
                };
            };
            responses: {
                /** @description The tag */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Tag"];
                    };
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No such record in this tenant (NOT_FOUND) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Conflicts with an existing record (CONFLICT) */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large (PAYLOAD_TOO_LARGE) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/functions/v1/content/jobs/publish-scheduled": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Job: publish the scheduled articles that are due, and unpublish those whose unpublish_at has come, each once (service role only)
         * @description Supabase address: `POST /functions/v1/content/jobs/publish-scheduled`
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description How many were published */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            published: number;
                            /** @description Published articles whose unpublish_at had come */
                            unpublished: number;
                        };
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/feeds/{site_id}/rss.xml": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A site's latest published articles as RSS 2.0 (public when the site's feeds are)
         * @description Newest first; tag filters by a tag's slug. Public while the site’s public_feeds setting is on (404 otherwise, as for an unknown site): it shows what a published-only key reads, published articles only. Answers with ETag and Last-Modified (If-None-Match or If-Modified-Since give 304) and Cache-Control public; 60 requests a minute per site and client address.
         *
         *     Supabase address: `GET /functions/v1/content/feeds/{site_id}/rss.xml`
         */
        get: {
            parameters: {
                query?: {
                    /** @description Only articles with this tag (its slug) */
                    tag?: string;
                    /** @description Articles, newest first */
                    limit?: number;
                };
                header?: never;
                path: {
                    site_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The feed */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/rss+xml": string;
                    };
                };
                /** @description Not modified (If-None-Match or If-Modified-Since) */
                304: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No such record in this tenant (NOT_FOUND) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/feeds/{site_id}/atom.xml": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A site's latest published articles as Atom (public when the site's feeds are)
         * @description Newest first; tag filters by a tag's slug. Public while the site’s public_feeds setting is on (404 otherwise, as for an unknown site): it shows what a published-only key reads, published articles only. Answers with ETag and Last-Modified (If-None-Match or If-Modified-Since give 304) and Cache-Control public; 60 requests a minute per site and client address.
         *
         *     Supabase address: `GET /functions/v1/content/feeds/{site_id}/atom.xml`
         */
        get: {
            parameters: {
                query?: {
                    /** @description Only articles with this tag (its slug) */
                    tag?: string;
                    /** @description Articles, newest first */
                    limit?: number;
                };
                header?: never;
                path: {
                    site_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The feed */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/atom+xml": string;
                    };
                };
                /** @description Not modified (If-None-Match or If-Modified-Since) */
                304: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No such record in this tenant (NOT_FOUND) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/feeds/{site_id}/feed.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A site's latest published articles as JSON Feed 1.1 (public when the site's feeds are)
         * @description Newest first; tag filters by a tag's slug. Public while the site’s public_feeds setting is on (404 otherwise, as for an unknown site): it shows what a published-only key reads, published articles only. Answers with ETag and Last-Modified (If-None-Match or If-Modified-Since give 304) and Cache-Control public; 60 requests a minute per site and client address.
         *
         *     Supabase address: `GET /functions/v1/content/feeds/{site_id}/feed.json`
         */
        get: {
            parameters: {
                query?: {
                    /** @description Only articles with this tag (its slug) */
                    tag?: string;
                    /** @description Articles, newest first */
                    limit?: number;
                };
                header?: never;
                path: {
                    site_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The feed */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/feed+json": string;
                    };
                };
                /** @description Not modified (If-None-Match or If-Modified-Since) */
                304: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No such record in this tenant (NOT_FOUND) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/feeds/{site_id}/sitemap.xml": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A site's sitemap: its published articles (public when the site's feeds are)
         * @description Up to 50000 URLs, each with lastmod; past that a sitemap index of /feeds/{site_id}/sitemaps/{n}.xml. Public while the site’s public_feeds setting is on (404 otherwise, as for an unknown site): it shows what a published-only key reads, published articles only. Answers with ETag and Last-Modified (If-None-Match or If-Modified-Since give 304) and Cache-Control public; 60 requests a minute per site and client address.
         *
         *     Supabase address: `GET /functions/v1/content/feeds/{site_id}/sitemap.xml`
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    site_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The sitemap, or the sitemap index */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/xml": string;
                    };
                };
                /** @description Not modified (If-None-Match or If-Modified-Since) */
                304: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No such record in this tenant (NOT_FOUND) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/feeds/{site_id}/sitemaps/{page}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One file of a site's sitemap index (public when the site's feeds are)
         * @description File n holds the published articles 50000·(n−1)+1 to 50000·n, oldest first. Public while the site’s public_feeds setting is on (404 otherwise, as for an unknown site): it shows what a published-only key reads, published articles only. Answers with ETag and Last-Modified (If-None-Match or If-Modified-Since give 304) and Cache-Control public; 60 requests a minute per site and client address.
         *
         *     Supabase address: `GET /functions/v1/content/feeds/{site_id}/sitemaps/{page}`
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    site_id: string;
                    page: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The sitemap file */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/xml": string;
                    };
                };
                /** @description Not modified (If-None-Match or If-Modified-Since) */
                304: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No such record in this tenant (NOT_FOUND) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/content/articles/{id}/previews": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The article's preview links, newest first, without their tokens (content:read)
         * @description With an API key, metered as one Content API request (past the Free quota: 429 QUOTA_EXCEEDED); a signed-in member is not metered.
         *
         *     Supabase address: `GET /functions/v1/content/articles/{id}/previews`
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The links (at most 100) */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["PreviewLink"][];
                        };
                    };
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No such record in this tenant (NOT_FOUND) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Make a preview link to the article as it is now, a draft or unpublished edits (content:write; editors: owners, admins, members)
         * @description The answer carries the token once; GET /v1/content/previews/{token} reads the article without a key until the link expires (default 7 days, at most 30) or is revoked. With an API key, metered as one Content API request (past the Free quota: 429 QUOTA_EXCEEDED); a signed-in member is not metered.
         *
         *     Supabase address: `POST /functions/v1/content/articles/{id}/previews`
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": components["schemas"]["CreatePreviewLink"];
                };
            };
            responses: {
                /** @description The link, with its token */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["CreatedPreviewLink"];
                    };
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No such record in this tenant (NOT_FOUND) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large (PAYLOAD_TOO_LARGE) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/content/articles/{id}/previews/{preview_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Revoke a preview link (content:write; editors): its token answers 404 from now on
         * @description With an API key, metered as one Content API request (past the Free quota: 429 QUOTA_EXCEEDED); a signed-in member is not metered.
         *
         *     Supabase address: `DELETE /functions/v1/content/articles/{id}/previews/{preview_id}`
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    preview_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Revoked */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No such record in this tenant (NOT_FOUND) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/content/previews/{token}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The article a preview link shows, as it is now (no key: the link's token)
         * @description The article as the read by id gives it (formats=html for the rendered body), with preview.expires_at. 404 alike for a malformed, unknown, revoked or expired token. Answers are Cache-Control: private, no-store and never cached; 60 requests a minute per client address.
         *
         *     Supabase address: `GET /functions/v1/content/previews/{token}`
         */
        get: {
            parameters: {
                query?: {
                    /** @description The body as markdown (the default, field body), html (sanitized, field html) and/or plaintext (field plaintext), comma-separated */
                    formats?: string;
                };
                header?: never;
                path: {
                    token: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The article */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ArticlePreview"];
                    };
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No such record in this tenant (NOT_FOUND) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/content/media": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the tenant's media library, newest first, with `q` searching file names, alt texts and captions (content:read)
         * @description With an API key, metered as one Content API request (past the Free quota: 429 QUOTA_EXCEEDED); a signed-in member is not metered.
         *
         *     Supabase address: `GET /functions/v1/content/media`
         */
        get: {
            parameters: {
                query?: {
                    /** @description Page size (1-100) */
                    limit?: number;
                    /** @description next_cursor from the previous page */
                    cursor?: string;
                    /** @description Words found in the file name, alt text or caption */
                    q?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page of images */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["MediaList"];
                    };
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Upload an image to the media library (content:write): JPEG, PNG, WebP, GIF, AVIF or SVG, recognised from its bytes; 413 over the plan's file size, 429 QUOTA_EXCEEDED over its storage, 415 for anything else, 422 for an SVG with script or links
         * @description With an API key, metered as one Content API request (past the Free quota: 429 QUOTA_EXCEEDED); a signed-in member is not metered.
         *
         *     Supabase address: `POST /functions/v1/content/media`
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "multipart/form-data": {
                        /**
                         * Format: binary
                         * @description The image; its type is read from its bytes
                         */
                        file: string;
                        /** @default  */
                        alt_text?: string;
                        /** @default  */
                        caption?: string;
                    };
                };
            };
            responses: {
                /** @description The stored image */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Media"];
                    };
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large (PAYLOAD_TOO_LARGE) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Error */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The request could not be carried out (UNPROCESSABLE) */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/content/media-usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The media library's stored bytes against the plan's storage quota and file size limit (content:read)
         * @description With an API key, metered as one Content API request (past the Free quota: 429 QUOTA_EXCEEDED); a signed-in member is not metered.
         *
         *     Supabase address: `GET /functions/v1/content/media-usage`
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Storage used and the plan quota */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["MediaUsage"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/content/media/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read one image of the media library, with a signed URL of the original (content:read)
         * @description With an API key, metered as one Content API request (past the Free quota: 429 QUOTA_EXCEEDED); a signed-in member is not metered.
         *
         *     Supabase address: `GET /functions/v1/content/media/{id}`
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The image */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Media"];
                    };
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No such record in this tenant (NOT_FOUND) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /**
         * Delete an image and its stored file (content:write; a contributor its own uploads only); 409 while an article uses it, naming the articles
         * @description With an API key, metered as one Content API request (past the Free quota: 429 QUOTA_EXCEEDED); a signed-in member is not metered.
         *
         *     Supabase address: `DELETE /functions/v1/content/media/{id}`
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Deleted */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No such record in this tenant (NOT_FOUND) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Conflicts with an existing record (CONFLICT) */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        /**
         * Change an image's alt text or caption (content:write; a contributor its own uploads only)
         * @description With an API key, metered as one Content API request (past the Free quota: 429 QUOTA_EXCEEDED); a signed-in member is not metered.
         *
         *     Supabase address: `PATCH /functions/v1/content/media/{id}`
         */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        alt_text?: string;
                        caption?: string;
                    };
                };
            };
            responses: {
                /** @description The image */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Media"];
                    };
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No such record in this tenant (NOT_FOUND) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large (PAYLOAD_TOO_LARGE) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/functions/v1/tenants/jobs/send-notifications": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Job: send queued e-mail notifications (service role only)
         * @description Supabase address: `POST /functions/v1/tenants/jobs/send-notifications`
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Counts */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            sent: number;
                            failed: number;
                        };
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/functions/v1/tenants/jobs/prune-rate-limits": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Job: delete finished rate-limit windows (service role only)
         * @description Supabase address: `POST /functions/v1/tenants/jobs/prune-rate-limits`
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Count */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            deleted: number;
                        };
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/functions/v1/tenants/jobs/prune-retention": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Job: prune finished webhook deliveries, outbox events and tool usage past retention, rolling up aggregates (service role only)
         * @description Supabase address: `POST /functions/v1/tenants/jobs/prune-retention`
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Counts */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            webhook_deliveries: number;
                            webhook_attempts: number;
                            outbox_events: number;
                            tool_usage: number;
                        };
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/tenants": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The tenants the signed-in user belongs to
         * @description Supabase address: `GET /functions/v1/tenants`
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Tenants */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["Tenant"][];
                        };
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Sign up a new tenant; the signed-in user becomes its owner and it becomes the active tenant
         * @description Supabase address: `POST /functions/v1/tenants`
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["CreateTenant"];
                };
            };
            responses: {
                /** @description Created */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Tenant"];
                    };
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large (PAYLOAD_TOO_LARGE) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/tenants/active": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Switch the user's active tenant (the next access token carries it; refresh the session)
         * @description Supabase address: `POST /functions/v1/tenants/active`
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["SwitchTenant"];
                };
            };
            responses: {
                /** @description Switched */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ActiveTenant"];
                    };
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No such record in this tenant (NOT_FOUND) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/tenants/current": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The tenant of the access token
         * @description Supabase address: `GET /functions/v1/tenants/current`
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Tenant */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Tenant"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Change the name, settings (owners and admins) or plan (owners) of the tenant
         * @description Supabase address: `PATCH /functions/v1/tenants/current`
         */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["UpdateTenant"];
                };
            };
            responses: {
                /** @description Tenant */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Tenant"];
                    };
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large (PAYLOAD_TOO_LARGE) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/tenants/current/members": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The tenant's members
         * @description Supabase address: `GET /functions/v1/tenants/current/members`
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Members */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["Member"][];
                        };
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/tenants/current/members/{user_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Remove a member (owners and admins), or leave (anyone); the last owner cannot go
         * @description Supabase address: `DELETE /functions/v1/tenants/current/members/{user_id}`
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    user_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Removed */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No such record in this tenant (NOT_FOUND) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Conflicts with an existing record (CONFLICT) */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        /**
         * Change a member's role (owners and admins; only owners grant or take the owner role)
         * @description Supabase address: `PATCH /functions/v1/tenants/current/members/{user_id}`
         */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    user_id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["UpdateMember"];
                };
            };
            responses: {
                /** @description Member */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Member"];
                    };
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No such record in this tenant (NOT_FOUND) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Conflicts with an existing record (CONFLICT) */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/invitations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The tenant's invitations, newest first
         * @description Supabase address: `GET /functions/v1/tenants/invitations`
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Invitations */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["Invitation"][];
                        };
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Invite someone by e-mail (owners and admins); the link is single use and expires in 7 days
         * @description Supabase address: `POST /functions/v1/tenants/invitations`
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["CreateInvitation"];
                };
            };
            responses: {
                /** @description Invited */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Invitation"];
                    };
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Conflicts with an existing record (CONFLICT) */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large (PAYLOAD_TOO_LARGE) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/invitations/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Revoke a pending invitation (owners and admins)
         * @description Supabase address: `DELETE /functions/v1/tenants/invitations/{id}`
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Revoked */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Invitation"];
                    };
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No such record in this tenant (NOT_FOUND) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Conflicts with an existing record (CONFLICT) */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/invitations/accept": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * What an invitation link invites to (does not use it up)
         * @description Supabase address: `GET /functions/v1/tenants/invitations/accept`
         */
        get: {
            parameters: {
                query: {
                    token: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Invitation */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvitationPreview"];
                    };
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No such record in this tenant (NOT_FOUND) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Accept an invitation as the signed-in user whose e-mail was invited
         * @description Supabase address: `POST /functions/v1/tenants/invitations/accept`
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["AcceptInvitation"];
                };
            };
            responses: {
                /** @description Joined */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["AcceptedInvitation"];
                    };
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No such record in this tenant (NOT_FOUND) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Conflicts with an existing record (CONFLICT) */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The request could not be carried out (UNPROCESSABLE) */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/jobs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the tenant's background jobs (scrapes, article generation, syncs), newest first
         * @description Supabase address: `GET /functions/v1/tenants/background-jobs`
         */
        get: {
            parameters: {
                query?: {
                    /** @description Page size (1-100) */
                    limit?: number;
                    /** @description next_cursor from the previous page */
                    cursor?: string;
                    /** @description Only jobs of this kind, or of any of up to 10 kinds separated by commas (e.g. scrape-social.source,generate-article.article) */
                    kind?: string;
                    status?: "queued" | "running" | "succeeded" | "failed";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page of jobs */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["Job"][];
                            next_cursor: string | null;
                        };
                    };
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/jobs/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One job: its status, attempts, result or error
         * @description Supabase address: `GET /functions/v1/tenants/background-jobs/{id}`
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The job */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Job"];
                    };
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No such record in this tenant (NOT_FOUND) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/tenants/admin/tenants/{id}/plan": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Change a tenant's plan (service role only: billing; a user's attempt anywhere else is refused with 403)
         * @description Supabase address: `POST /functions/v1/tenants/admin/tenants/{id}/plan`
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["ChangePlan"];
                };
            };
            responses: {
                /** @description The plan change */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["PlanChange"];
                    };
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No such record in this tenant (NOT_FOUND) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/mcp": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * MCP Streamable HTTP: no server-initiated stream (405)
         * @description The server is stateless and sends no requests or notifications of its own, so it offers no GET stream: 405, as the MCP specification allows.
         *
         *     Supabase address: `GET /functions/v1/mcp-sse`
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Method Not Allowed */
                405: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        /**
         * MCP Streamable HTTP: one JSON-RPC message
         * @description Stateless Streamable HTTP (MCP 2025-11-25): each POST carries one JSON-RPC message and is answered with application/json (202 for notifications); a tools/call of a connected MCP server's tool is answered as text/event-stream, carrying that server's progress and log notifications before the result. No session id is issued. Send Accept: application/json, text/event-stream.
         *
         *     Supabase address: `POST /functions/v1/mcp-sse`
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The JSON-RPC response (or an event stream of notifications and the response) */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["JsonRpcMessage"];
                        "text/event-stream": string;
                    };
                };
                /** @description A notification or response was accepted */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Malformed JSON-RPC (a JSON-RPC error) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["JsonRpcMessage"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Accept must list application/json and text/event-stream */
                406: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Body too large (PAYLOAD_TOO_LARGE) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Content-Type must be application/json */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        /**
         * MCP Streamable HTTP: no sessions to end (405)
         * @description Stateless: no Mcp-Session-Id is issued, so there is nothing to terminate (405, as the MCP specification allows).
         *
         *     Supabase address: `DELETE /functions/v1/mcp-sse`
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Method Not Allowed */
                405: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/mcp/sse": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * MCP HTTP+SSE: open the event stream
         * @description The first event is `endpoint`, whose data is the address to POST JSON-RPC messages to (sse/messages?sessionId=...). Responses arrive as `message` events, whichever instance the POST reached. A comment line is sent as a heartbeat; the stream ends before the edge runtime's wall-clock limit (MCP_SSE_MAX_STREAM_MS) and the client reconnects to a new session. Send Accept: text/event-stream.
         *
         *     Supabase address: `GET /functions/v1/mcp-sse/sse`
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The event stream */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "text/event-stream": string;
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Accept must include text/event-stream */
                406: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/mcp/sse/messages": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * MCP HTTP+SSE: send one JSON-RPC message to a session
         * @description Answers 202; the JSON-RPC response travels down the session's event stream. Only the key that opened the stream may post to it. Over the rate limit the POST gets 429 and a request also gets a JSON-RPC error on the stream (data.retryAfter).
         *
         *     Supabase address: `POST /functions/v1/mcp-sse/sse/messages`
         */
        post: {
            parameters: {
                query: {
                    sessionId: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Accepted; the response follows on the stream */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No such record in this tenant (NOT_FOUND) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large (PAYLOAD_TOO_LARGE) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/mcp/tools/list": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The tools available to this key
         * @description Supabase address: `GET /functions/v1/mcp-sse/tools/list`
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Tools */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tools: components["schemas"]["Tool"][];
                        };
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/mcp/tools/execute": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Execute a tool
         * @description A refused call (scope, permission, restriction, connection needing re-authorization) is 403; params failing the inputSchema 400; a provider or MCP server that fails 422 UNPROCESSABLE.
         *
         *     Supabase address: `POST /functions/v1/mcp-sse/tools/execute`
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @example platform:list_content */
                        tool: string;
                        /** @default {} */
                        params?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            responses: {
                /** @description The tool result */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            tool: string;
                            result?: unknown;
                        };
                    };
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No such record in this tenant (NOT_FOUND) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large (PAYLOAD_TOO_LARGE) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The request could not be carried out (UNPROCESSABLE) */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/.well-known/oauth-protected-resource/mcp": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * OAuth protected resource metadata (RFC 9728) of {mcp_url}
         * @description Named by the WWW-Authenticate header of every 401 from the tool server; also served at /.well-known/oauth-protected-resource/mcp on the local platform. The authorization server is the tool server itself (its metadata at {mcp_url}/.well-known/oauth-authorization-server).
         *
         *     Supabase address: `GET /functions/v1/mcp-sse/.well-known/oauth-protected-resource`
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The metadata */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ProtectedResourceMetadata"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/.well-known/oauth-authorization-server/mcp": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * OAuth authorization server metadata (RFC 8414)
         * @description The tool server is its own OAuth 2.1 authorization server for MCP clients (issuer {mcp_url}): dynamic client registration or client ID metadata documents, PKCE S256, resource indicators, refresh and revocation. Also at /.well-known/oauth-authorization-server/mcp on the local platform.
         *
         *     Supabase address: `GET /functions/v1/mcp-sse/.well-known/oauth-authorization-server`
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The metadata */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["AuthorizationServerMetadata"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/mcp/.well-known/openid-configuration": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The same metadata where clients look for OpenID configuration (a path-appended issuer)
         * @description The tool server is its own OAuth 2.1 authorization server for MCP clients (issuer {mcp_url}): dynamic client registration or client ID metadata documents, PKCE S256, resource indicators, refresh and revocation. Also at /.well-known/oauth-authorization-server/mcp on the local platform.
         *
         *     Supabase address: `GET /functions/v1/mcp-sse/.well-known/openid-configuration`
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The metadata */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["AuthorizationServerMetadata"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/mcp/oauth/register": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Dynamic client registration (RFC 7591): public clients only
         * @description redirect_uris must be https, http on a loopback address, or a private-use scheme (cursor://, vscode://). Answers RFC 7591 errors (invalid_redirect_uri, invalid_client_metadata).
         *
         *     Supabase address: `POST /functions/v1/mcp-sse/oauth/register`
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        redirect_uris: string[];
                        client_name?: string;
                        grant_types?: string[];
                        response_types?: string[];
                        token_endpoint_auth_method?: string;
                    };
                };
            };
            responses: {
                /** @description Registered */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["OAuthClientRegistration"];
                    };
                };
                /** @description Refused metadata */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["OAuthError"];
                    };
                };
                /** @description Body too large (PAYLOAD_TOO_LARGE) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/mcp/oauth/authorize": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Authorization request: to the dashboard sign-in and consent page
         * @description PKCE S256 is required; resource, when given, must be {mcp_url}; scope is a space-separated subset of content:read content:write (both when omitted). A good request redirects to the dashboard's consent page; an unknown client or unregistered redirect_uri is a 400 page; any other fault goes back to the redirect_uri with an OAuth error.
         *
         *     Supabase address: `GET /functions/v1/mcp-sse/oauth/authorize`
         */
        get: {
            parameters: {
                query?: {
                    response_type?: string;
                    client_id?: string;
                    redirect_uri?: string;
                    code_challenge?: string;
                    code_challenge_method?: string;
                    state?: string;
                    scope?: string;
                    resource?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description To the consent page, or back to the client with an error */
                302: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Unknown client or redirect URI (answered here, not redirected) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["OAuthError"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/mcp/oauth/token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Token endpoint: authorization_code (with code_verifier) or refresh_token
         * @description application/x-www-form-urlencoded (JSON accepted too): grant_type, client_id, and code + code_verifier + redirect_uri, or refresh_token; resource optional ({mcp_url}). Refresh tokens rotate; a used one presented again revokes the grant.
         *
         *     Supabase address: `POST /functions/v1/mcp-sse/oauth/token`
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Tokens */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["OAuthTokens"];
                    };
                };
                /** @description invalid_grant, invalid_request, unsupported_grant_type */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["OAuthError"];
                    };
                };
                /** @description invalid_client */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["OAuthError"];
                    };
                };
                /** @description Body too large (PAYLOAD_TOO_LARGE) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/mcp/oauth/revoke": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Token revocation (RFC 7009): the token’s grant ends on every instance at once
         * @description Form or JSON: token, client_id. Always 200 for a well-formed request, known token or not.
         *
         *     Supabase address: `POST /functions/v1/mcp-sse/oauth/revoke`
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Revoked (or nothing to revoke) */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description No token */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["OAuthError"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/mcp/oauth/requests/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * An MCP client’s pending authorization request, for the consent page
         * @description Supabase address: `GET /functions/v1/mcp-sse/oauth/requests/{id}`
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The request */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["McpAuthorizationRequest"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No such record in this tenant (NOT_FOUND) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/mcp/oauth/requests/{id}/decision": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Approve (owners and admins) or decline an MCP client’s request; where the browser goes next
         * @description Supabase address: `POST /functions/v1/mcp-sse/oauth/requests/{id}/decision`
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        approve: boolean;
                        /**
                         * @description Limits the grant to these connections and tools (docs/mcp.md); absent or null: every tool
                         * @example {
                         *       "connections": [],
                         *       "tools": [
                         *         "platform:list_content",
                         *         "slack:post_message"
                         *       ]
                         *     }
                         */
                        tool_subset?: {
                            /** @default [] */
                            connections?: string[];
                            /** @default [] */
                            tools?: string[];
                        } | null;
                    };
                };
            };
            responses: {
                /** @description The client’s redirect URI with a code or an error */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: uri */
                            redirect_to: string;
                        };
                    };
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No such record in this tenant (NOT_FOUND) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/mcp-clients": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The MCP clients connected to this tenant by OAuth, newest first (also /api/mcp-clients)
         * @description Supabase address: `GET /functions/v1/mcp-sse/oauth/clients`
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Connected clients */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["ConnectedMcpClient"][];
                        };
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/mcp-clients/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Revoke a connected MCP client: its tokens are refused from the next request, on every instance
         * @description Supabase address: `DELETE /functions/v1/mcp-sse/oauth/clients/{id}`
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Revoked */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No such record in this tenant (NOT_FOUND) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/providers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the provider catalog (public path /api/providers)
         * @description Supabase address: `GET /functions/v1/credentials/providers`
         */
        get: {
            parameters: {
                query?: {
                    /** @description Only providers of this category */
                    category?: "AI" | "Payments" | "Email" | "Communications" | "Storage" | "Database" | "Infrastructure" | "Development" | "Productivity" | "Analytics" | "Monitoring" | "Ecommerce" | "Affiliate" | "Scraping";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Providers by category and name */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["Provider"][];
                        };
                    };
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/credentials": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the tenant's credentials, newest first
         * @description Supabase address: `GET /functions/v1/credentials`
         */
        get: {
            parameters: {
                query?: {
                    /** @description Page size (1-100) */
                    limit?: number;
                    /** @description next_cursor from the previous page */
                    cursor?: string;
                    /** @description Only credentials of this provider */
                    provider_id?: string;
                    /** @description Only credentials of this environment */
                    environment?: "development" | "staging" | "production";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page of credentials */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["Credential"][];
                            next_cursor: string | null;
                        };
                    };
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Store a credential (the secret is encrypted at once; only key_hint is ever shown)
         * @description Supabase address: `POST /functions/v1/credentials`
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["CreateCredential"];
                };
            };
            responses: {
                /** @description Created */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Credential"];
                    };
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Conflicts with an existing record (CONFLICT) */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large (PAYLOAD_TOO_LARGE) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/credentials/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get one credential (never its secret)
         * @description Supabase address: `GET /functions/v1/credentials/{id}`
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The credential */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Credential"];
                    };
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No such record in this tenant (NOT_FOUND) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /**
         * Delete a credential and its usage records
         * @description Supabase address: `DELETE /functions/v1/credentials/{id}`
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Deleted */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No such record in this tenant (NOT_FOUND) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        /**
         * Change a credential's name, scopes or expiry
         * @description Supabase address: `PATCH /functions/v1/credentials/{id}`
         */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["UpdateCredential"];
                };
            };
            responses: {
                /** @description The updated credential */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Credential"];
                    };
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No such record in this tenant (NOT_FOUND) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Conflicts with an existing record (CONFLICT) */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/credentials/{id}/rotate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Replace the secret (new key_hint; the old ciphertext is overwritten)
         * @description Supabase address: `POST /functions/v1/credentials/{id}/rotate`
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["RotateCredential"];
                };
            };
            responses: {
                /** @description The rotated credential */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Credential"];
                    };
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No such record in this tenant (NOT_FOUND) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large (PAYLOAD_TOO_LARGE) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/credentials/{id}/usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Usage history of a credential: which server code used it and when, newest first
         * @description Supabase address: `GET /functions/v1/credentials/{id}/usage`
         */
        get: {
            parameters: {
                query?: {
                    /** @description Page size (1-100) */
                    limit?: number;
                    /** @description next_cursor from the previous page */
                    cursor?: string;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page of usage records */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["CredentialUsage"][];
                            next_cursor: string | null;
                        };
                    };
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No such record in this tenant (NOT_FOUND) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/functions/v1/credentials/jobs/expiry-alerts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Job (daily): alert owners and admins 7 days and 1 day before a credential expires
         * @description Supabase address: `POST /functions/v1/credentials/jobs/expiry-alerts`
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Counts */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            expiring: number;
                            notified: number;
                        };
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/functions/v1/credentials/jobs/prune-usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Job (daily): delete usage records past their retention
         * @description Supabase address: `POST /functions/v1/credentials/jobs/prune-usage`
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Count */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            deleted: number;
                        };
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/functions/v1/usage/jobs/check-usage-alerts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Job: queue usage alerts that are due and not yet sent (service role only)
         * @description Supabase address: `POST /functions/v1/usage/jobs/check-usage-alerts`
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Count */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            queued: number;
                        };
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Usage, quota, percent and overage per product for a month (users, or keys with billing:read)
         * @description Supabase address: `GET /functions/v1/usage/usage`
         */
        get: {
            parameters: {
                query?: {
                    /** @description Month (UTC) as YYYY-MM; default the current one */
                    period?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Usage */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Usage"];
                    };
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/usage/daily": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Each product's use per day of a month, with its monthly quota (users, or keys with billing:read)
         * @description Supabase address: `GET /functions/v1/usage/usage/daily`
         */
        get: {
            parameters: {
                query?: {
                    /** @description Month (UTC) as YYYY-MM; default the current one */
                    period?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Daily usage */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DailyUsage"];
                    };
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/usage-alerts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The tenant's usage alerts
         * @description Supabase address: `GET /functions/v1/usage/alerts`
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Alerts */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["UsageAlert"][];
                        };
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Add a usage alert (owners and admins): an e-mail once per month when usage reaches the threshold
         * @description Supabase address: `POST /functions/v1/usage/alerts`
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["CreateUsageAlert"];
                };
            };
            responses: {
                /** @description Created */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["UsageAlert"];
                    };
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Conflicts with an existing record (CONFLICT) */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large (PAYLOAD_TOO_LARGE) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/usage-alerts/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete a usage alert (owners and admins)
         * @description Supabase address: `DELETE /functions/v1/usage/alerts/{id}`
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Deleted */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No such record in this tenant (NOT_FOUND) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/analytics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Analytics API: usage per product and month, and event counts by type, over a period (analytics:read)
         * @description Metered as one Analytics API request; past the Free quota: 429 QUOTA_EXCEEDED.
         *
         *     Supabase address: `GET /functions/v1/usage/analytics`
         */
        get: {
            parameters: {
                query?: {
                    /** @description Start (inclusive); default the start of this month */
                    from?: string;
                    /** @description End (exclusive); default the start of next month */
                    to?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Analytics */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Analytics"];
                    };
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the tenant's webhook subscriptions, newest first
         * @description Supabase address: `GET /functions/v1/webhooks`
         */
        get: {
            parameters: {
                query?: {
                    /** @description Page size (1-100) */
                    limit?: number;
                    /** @description next_cursor from the previous page */
                    cursor?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["Webhook"][];
                            next_cursor: string | null;
                        };
                    };
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Create a webhook subscription (returns its signing secret)
         * @description Supabase address: `POST /functions/v1/webhooks`
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["CreateWebhook"];
                };
            };
            responses: {
                /** @description Created */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["CreatedWebhook"];
                    };
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large (PAYLOAD_TOO_LARGE) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The request could not be carried out (UNPROCESSABLE) */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/event-types": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The event types a subscription may name, each with when it occurs (the event catalog)
         * @description Supabase address: `GET /functions/v1/webhooks/event-types`
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Every event type, in the catalog order */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["WebhookEventTypeList"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get one webhook subscription
         * @description Supabase address: `GET /functions/v1/webhooks/{id}`
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The subscription */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Webhook"];
                    };
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No such record in this tenant (NOT_FOUND) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /**
         * Delete a subscription with its delivery log
         * @description Supabase address: `DELETE /functions/v1/webhooks/{id}`
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Deleted */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No such record in this tenant (NOT_FOUND) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        /**
         * Update url, events or description
         * @description Supabase address: `PATCH /functions/v1/webhooks/{id}`
         */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["UpdateWebhook"];
                };
            };
            responses: {
                /** @description The subscription */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Webhook"];
                    };
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No such record in this tenant (NOT_FOUND) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/webhooks/{id}/secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Reveal the signing secret (owners and admins)
         * @description Supabase address: `GET /functions/v1/webhooks/{id}/secret`
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The secret */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["WebhookSecret"];
                    };
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No such record in this tenant (NOT_FOUND) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/{id}/rotate-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate the signing secret; the previous one keeps signing during the overlap
         * @description Supabase address: `POST /functions/v1/webhooks/{id}/rotate-secret`
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": components["schemas"]["RotateWebhookSecret"];
                };
            };
            responses: {
                /** @description The new secret */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["WebhookSecret"];
                    };
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No such record in this tenant (NOT_FOUND) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/{id}/pause": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Pause deliveries (events are held until resume)
         * @description Supabase address: `POST /functions/v1/webhooks/{id}/pause`
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The subscription */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Webhook"];
                    };
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No such record in this tenant (NOT_FOUND) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/{id}/resume": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Reactivate a paused subscription and deliver the events held while it was paused
         * @description Supabase address: `POST /functions/v1/webhooks/{id}/resume`
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The subscription */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Webhook"];
                    };
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No such record in this tenant (NOT_FOUND) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The delivery log: attempts, newest first
         * @description Supabase address: `GET /functions/v1/webhooks/{id}/deliveries`
         */
        get: {
            parameters: {
                query?: {
                    /** @description Page size (1-100) */
                    limit?: number;
                    /** @description next_cursor from the previous page */
                    cursor?: string;
                    /** @description Only attempts of this event */
                    event_id?: string;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page of attempts */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["WebhookDeliveryAttempt"][];
                            next_cursor: string | null;
                        };
                    };
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No such record in this tenant (NOT_FOUND) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/{id}/redeliver": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send one event again (a new run of the retry schedule, same event id)
         * @description Supabase address: `POST /functions/v1/webhooks/{id}/redeliver`
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["RedeliverWebhookEvent"];
                };
            };
            responses: {
                /** @description Queued */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["WebhookDelivery"];
                    };
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No such record in this tenant (NOT_FOUND) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Conflicts with an existing record (CONFLICT) */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/{id}/recover": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Requeue every failed delivery of events created since a time
         * @description Supabase address: `POST /functions/v1/webhooks/{id}/recover`
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["RecoverWebhookDeliveries"];
                };
            };
            responses: {
                /** @description Queued */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["WebhookRecoverResult"];
                    };
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No such record in this tenant (NOT_FOUND) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/{id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a webhook.test event (one attempt, no retries, also while paused)
         * @description Supabase address: `POST /functions/v1/webhooks/{id}/test`
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Queued */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["WebhookDelivery"];
                    };
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No such record in this tenant (NOT_FOUND) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/functions/v1/webhooks/jobs/dispatch": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Job: send due deliveries (service role only; pg_cron every minute)
         * @description Supabase address: `POST /functions/v1/webhooks/jobs/dispatch`
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Counts */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            claimed: number;
                            succeeded: number;
                            failed: number;
                            paused: number;
                        };
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/integrations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The integrations catalog: OAuth providers and MCP integration types, by category
         * @description Supabase address: `GET /functions/v1/integrations`
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The catalog */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["IntegrationCatalog"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/integrations/{slug}/authorize": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Start the OAuth flow: redirects to the provider's consent screen (JSON with Accept: application/json); sets the HttpOnly cookie that binds the flow to this browser
         * @description Supabase address: `GET /functions/v1/integrations/{slug}/authorize`
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    slug: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The consent-screen address */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            authorization_url: string;
                            expires_at: string;
                        };
                    };
                };
                /** @description Redirect to the provider's consent screen */
                302: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No such record in this tenant (NOT_FOUND) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The request could not be carried out (UNPROCESSABLE) */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/integrations/callback": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * OAuth redirect target: checks the browser binding cookie, exchanges the code, stores the connection, redirects to the dashboard
         * @description Supabase address: `GET /functions/v1/integrations/callback`
         */
        get: {
            parameters: {
                query: {
                    state: string;
                    code?: string;
                    error?: string;
                    error_description?: string;
                    iss?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Redirect to DASHBOARD_URL with status=connected or status=error&error=<code> */
                302: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/integrations/client-metadata.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The platform's OAuth client ID metadata document: its client_id at the authorization servers of OAuth-protected MCP servers that take such documents
         * @description Supabase address: `GET /functions/v1/integrations/client-metadata.json`
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The document */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ClientIdMetadataDocument"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/integrations/connect": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Connect an MCP server: discovers its tools and stores the connection (token encrypted); an OAuth-protected server answers 202 with the sign-in address
         * @description Supabase address: `POST /functions/v1/integrations/connect`
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["ConnectMcpServer"];
                };
            };
            responses: {
                /** @description The connection with its tools */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ConnectionDetail"];
                    };
                };
                /** @description The server asks for an OAuth sign-in: the authorization address, and the HttpOnly cookie that binds the flow to this browser */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["McpAuthorizationStarted"];
                    };
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large (PAYLOAD_TOO_LARGE) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The request could not be carried out (UNPROCESSABLE) */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/integrations/{id}/stats": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Usage statistics of one integration for the caller's tenant
         * @description Supabase address: `GET /functions/v1/integrations/{id}/stats`
         */
        get: {
            parameters: {
                query?: {
                    period?: "24h" | "7d" | "30d";
                };
                header?: never;
                path: {
                    /** @description integration_id or slug */
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Statistics */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["IntegrationStats"];
                    };
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No such record in this tenant (NOT_FOUND) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/connections": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The tenant's connections (never a token)
         * @description Supabase address: `GET /functions/v1/integrations/connections`
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Connections, oldest first */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["Connection"][];
                        };
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/connections/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One connection with its tools
         * @description Supabase address: `GET /functions/v1/integrations/connections/{id}`
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The connection */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ConnectionDetail"];
                    };
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No such record in this tenant (NOT_FOUND) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /**
         * Delete a connection (revoking its token at the provider where it offers revocation)
         * @description Supabase address: `DELETE /functions/v1/integrations/connections/{id}`
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Deleted */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** Format: uuid */
                            id: string;
                            /** @enum {boolean} */
                            deleted: true;
                            /** @description Whether the provider confirmed revocation */
                            revoked_at_provider: boolean;
                        };
                    };
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No such record in this tenant (NOT_FOUND) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        /**
         * Rename a connection
         * @description Supabase address: `PATCH /functions/v1/integrations/connections/{id}`
         */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["RenameConnection"];
                };
            };
            responses: {
                /** @description The connection */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Connection"];
                    };
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No such record in this tenant (NOT_FOUND) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/connections/{id}/discover": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Discover an MCP connection's tools again
         * @description Supabase address: `POST /functions/v1/integrations/connections/{id}/discover`
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The connection with its tools */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ConnectionDetail"];
                    };
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No such record in this tenant (NOT_FOUND) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The request could not be carried out (UNPROCESSABLE) */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/connections/{id}/permissions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A connection's tool permissions
         * @description Supabase address: `GET /functions/v1/integrations/connections/{id}/permissions`
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Permissions */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description What a tool without a permission row gets */
                            default_allowed: boolean;
                            data: components["schemas"]["ToolPermission"][];
                        };
                    };
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No such record in this tenant (NOT_FOUND) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Allow or disable a tool on a connection, with optional restrictions
         * @description Supabase address: `POST /functions/v1/integrations/connections/{id}/permissions`
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["SetToolPermission"];
                };
            };
            responses: {
                /** @description Updated */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ToolPermission"];
                    };
                };
                /** @description Created */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ToolPermission"];
                    };
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No such record in this tenant (NOT_FOUND) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large (PAYLOAD_TOO_LARGE) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/functions/v1/integrations/jobs/refresh-tokens": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Job: refresh OAuth tokens that expire within 1 hour (service role only; hourly)
         * @description Supabase address: `POST /functions/v1/integrations/jobs/refresh-tokens`
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Counts */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            claimed: number;
                            refreshed: number;
                            needs_reauth: number;
                            failed: number;
                            skipped: number;
                        };
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/commerce": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Receive a Shopify webhook at the shared address (stores connected before per-store addresses)
         * @description Shops authenticate by signature, not by our keys: base64 HMAC-SHA256 of the raw body under the
         *     store's secret, in X-Shopify-Hmac-Sha256 (Shopify) or X-WC-Webhook-Signature (WooCommerce). Shopify also sends
         *     X-Shopify-Shop-Domain, X-Shopify-Topic, X-Shopify-Webhook-Id (the dedupe key), X-Shopify-Event-Id,
         *     X-Shopify-Triggered-At and X-Shopify-API-Version; WooCommerce X-WC-Webhook-Topic, X-WC-Webhook-Delivery-ID
         *     (the dedupe key), -Source, -Resource and -Event. The delivery is stored and acknowledged at once (200) and
         *     processed afterwards. An unknown store and a bad signature get the same 401; a topic outside the five is
         *     acknowledged as ignored; a repeated webhook id is acknowledged as a duplicate.
         *
         *     The store is found by X-Shopify-Shop-Domain among the Shopify stores connected before every store got its own address (docs/commerce.md); a store connected since is reached only at its own address, POST /stores/{store_id}.
         *
         *     Supabase address: `POST /functions/v1/commerce-webhook`
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Stored (or a duplicate, or an ignored topic) */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["CommerceReceipt"];
                    };
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large (PAYLOAD_TOO_LARGE) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/commerce/stores/{store_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Receive a Shopify or WooCommerce webhook at the store's own address (its webhook_url)
         * @description Shops authenticate by signature, not by our keys: base64 HMAC-SHA256 of the raw body under the
         *     store's secret, in X-Shopify-Hmac-Sha256 (Shopify) or X-WC-Webhook-Signature (WooCommerce). Shopify also sends
         *     X-Shopify-Shop-Domain, X-Shopify-Topic, X-Shopify-Webhook-Id (the dedupe key), X-Shopify-Event-Id,
         *     X-Shopify-Triggered-At and X-Shopify-API-Version; WooCommerce X-WC-Webhook-Topic, X-WC-Webhook-Delivery-ID
         *     (the dedupe key), -Source, -Resource and -Event. The delivery is stored and acknowledged at once (200) and
         *     processed afterwards. An unknown store and a bad signature get the same 401; a topic outside the five is
         *     acknowledged as ignored; a repeated webhook id is acknowledged as a duplicate.
         *
         *     WooCommerce's unsigned ping (body webhook_id=<id>) sent when a webhook is saved is answered 200 with status ping.
         *
         *     Supabase address: `POST /functions/v1/commerce-webhook/stores/{store_id}`
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    store_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Stored (or a duplicate, an ignored topic, a ping) */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["CommerceReceipt"];
                    };
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large (PAYLOAD_TOO_LARGE) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/commerce/stores": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the tenant's stores, newest first
         * @description Supabase address: `GET /functions/v1/commerce-webhook/stores`
         */
        get: {
            parameters: {
                query?: {
                    /** @description Page size (1-100) */
                    limit?: number;
                    /** @description next_cursor from the previous page */
                    cursor?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page of stores */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["CommerceStore"][];
                            next_cursor: string | null;
                        };
                    };
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Connect a Shopify or WooCommerce store (its signing secret is write-only)
         * @description Supabase address: `POST /functions/v1/commerce-webhook/stores`
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["CreateCommerceStore"];
                };
            };
            responses: {
                /** @description Created; webhook_url is the address to paste into the shop */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["CommerceStore"];
                    };
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Conflicts with an existing record (CONFLICT) */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large (PAYLOAD_TOO_LARGE) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/commerce/stores/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get one store
         * @description Supabase address: `GET /functions/v1/commerce-webhook/stores/{id}`
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The store */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["CommerceStore"];
                    };
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No such record in this tenant (NOT_FOUND) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /**
         * Disconnect a store, deleting its deliveries, orders and products
         * @description Supabase address: `DELETE /functions/v1/commerce-webhook/stores/{id}`
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Deleted */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No such record in this tenant (NOT_FOUND) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        /**
         * Rename a store or change its shop domain / site URL
         * @description Supabase address: `PATCH /functions/v1/commerce-webhook/stores/{id}`
         */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["UpdateCommerceStore"];
                };
            };
            responses: {
                /** @description The store */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["CommerceStore"];
                    };
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No such record in this tenant (NOT_FOUND) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Conflicts with an existing record (CONFLICT) */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large (PAYLOAD_TOO_LARGE) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/commerce/stores/{id}/rotate-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Replace the store's signing secret (takes effect on the next delivery)
         * @description Supabase address: `POST /functions/v1/commerce-webhook/stores/{id}/rotate-secret`
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["RotateCommerceStoreSecret"];
                };
            };
            responses: {
                /** @description The store */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["CommerceStore"];
                    };
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No such record in this tenant (NOT_FOUND) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large (PAYLOAD_TOO_LARGE) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/commerce/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The log of received deliveries, newest first (status=failed lists the dead letters)
         * @description Supabase address: `GET /functions/v1/commerce-webhook/deliveries`
         */
        get: {
            parameters: {
                query?: {
                    /** @description Page size (1-100) */
                    limit?: number;
                    /** @description next_cursor from the previous page */
                    cursor?: string;
                    status?: "pending" | "processed" | "ignored" | "failed";
                    store_id?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page of deliveries */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["CommerceDelivery"][];
                            next_cursor: string | null;
                        };
                    };
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/commerce/deliveries/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One received delivery (its state, never its payload)
         * @description Supabase address: `GET /functions/v1/commerce-webhook/deliveries/{id}`
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The delivery */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["CommerceDelivery"];
                    };
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No such record in this tenant (NOT_FOUND) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/commerce/deliveries/{id}/replay": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Queue a dead-lettered delivery again, with a fresh retry schedule
         * @description Supabase address: `POST /functions/v1/commerce-webhook/deliveries/{id}/replay`
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The delivery, pending again */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["CommerceDelivery"];
                    };
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No such record in this tenant (NOT_FOUND) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Conflicts with an existing record (CONFLICT) */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/commerce/orders": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Synced orders, newest first, with filters
         * @description Supabase address: `GET /functions/v1/commerce-webhook/orders`
         */
        get: {
            parameters: {
                query?: {
                    /** @description Page size (1-100) */
                    limit?: number;
                    /** @description next_cursor from the previous page */
                    cursor?: string;
                    store_id?: string;
                    financial_status?: string;
                    fulfillment_status?: string;
                    /** @description Only orders the shop updated at or after this time */
                    updated_since?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page of orders */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["CommerceOrder"][];
                            next_cursor: string | null;
                        };
                    };
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/commerce/products": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Synced products, newest first, with filters (deleted ones only with include_deleted=true)
         * @description Supabase address: `GET /functions/v1/commerce-webhook/products`
         */
        get: {
            parameters: {
                query?: {
                    /** @description Page size (1-100) */
                    limit?: number;
                    /** @description next_cursor from the previous page */
                    cursor?: string;
                    store_id?: string;
                    status?: string;
                    /** @description Words in the title, handle or a SKU */
                    q?: string;
                    /** @description Also list products the shop deleted (default false) */
                    include_deleted?: "true" | "false";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page of products */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["CommerceProduct"][];
                            next_cursor: string | null;
                        };
                    };
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/functions/v1/commerce-webhook/jobs/process": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Job: process due deliveries (service role only; pg_cron every minute)
         * @description Supabase address: `POST /functions/v1/commerce-webhook/jobs/process`
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Counts */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            claimed: number;
                            processed: number;
                            retried: number;
                            dead_lettered: number;
                            lease_lost: number;
                        };
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/functions/v1/scrape-social": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Scrape one source now: answers 202 with the job (the one already queued or running, if any); GET /api/jobs/{job_id} follows it
         * @description Supabase address: `POST /functions/v1/scrape-social`
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["TriggerScrape"];
                };
            };
            responses: {
                /** @description Queued */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["AcceptedJob"];
                    };
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No such record in this tenant (NOT_FOUND) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large (PAYLOAD_TOO_LARGE) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/functions/v1/scrape-social/jobs/sweep": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Job: queue the scrapes of scheduled sources that are due, then run due and stalled scrape jobs
         * @description Supabase address: `POST /functions/v1/scrape-social/jobs/sweep`
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Counts */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            succeeded: number;
                            failed: number;
                            retried: number;
                            /** @description Scheduled runs queued by this sweep */
                            scheduled: number;
                        };
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/sources": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the tenant's sources, newest first
         * @description Supabase address: `GET /functions/v1/scrape-social/sources`
         */
        get: {
            parameters: {
                query?: {
                    /** @description Page size (1-100) */
                    limit?: number;
                    /** @description next_cursor from the previous page */
                    cursor?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page of sources */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["Source"][];
                            next_cursor: string | null;
                        };
                    };
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Add a source (a feed, or an Apify actor run) that feeds one site, with an optional schedule; an enabled feed (or a scheduled actor) is fetched at once, its job in last_job_id
         * @description Supabase address: `POST /functions/v1/scrape-social/sources`
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["CreateSource"];
                };
            };
            responses: {
                /** @description Created */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Source"];
                    };
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large (PAYLOAD_TOO_LARGE) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/sources/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One source, with its last run
         * @description Supabase address: `GET /functions/v1/scrape-social/sources/{id}`
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The source */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Source"];
                    };
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No such record in this tenant (NOT_FOUND) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /**
         * Delete a source and its items
         * @description Supabase address: `DELETE /functions/v1/scrape-social/sources/{id}`
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Deleted */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No such record in this tenant (NOT_FOUND) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        /**
         * Change a source: name, site, config (same kind), schedule, enabled
         * @description Supabase address: `PATCH /functions/v1/scrape-social/sources/{id}`
         */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["UpdateSource"];
                };
            };
            responses: {
                /** @description The source */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Source"];
                    };
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No such record in this tenant (NOT_FOUND) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large (PAYLOAD_TOO_LARGE) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/sources/{id}/items": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The source's scraped items, newest first (their ids feed generate-article)
         * @description Supabase address: `GET /functions/v1/scrape-social/sources/{id}/items`
         */
        get: {
            parameters: {
                query?: {
                    /** @description Page size (1-100) */
                    limit?: number;
                    /** @description next_cursor from the previous page */
                    cursor?: string;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page of items */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["SourceItem"][];
                            next_cursor: string | null;
                        };
                    };
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No such record in this tenant (NOT_FOUND) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/functions/v1/generate-article": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Write a draft article from scraped items with the tenant's AI provider: answers 202 with the job (429 QUOTA_EXCEEDED when the Assistant API quota is used up)
         * @description Supabase address: `POST /functions/v1/generate-article`
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["GenerateArticle"];
                };
            };
            responses: {
                /** @description Queued */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["AcceptedJob"];
                    };
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No such record in this tenant (NOT_FOUND) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large (PAYLOAD_TOO_LARGE) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The request could not be carried out (UNPROCESSABLE) */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/functions/v1/generate-article/jobs/sweep": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Job: run due generation jobs (retries after backoff) and those a stopped instance left
         * @description Supabase address: `POST /functions/v1/generate-article/jobs/sweep`
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Counts */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            succeeded: number;
                            failed: number;
                            retried: number;
                        };
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/affiliate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sync a destination's affiliate catalogs: answers 202 with the job (the one already queued or running, if any)
         * @description Supabase address: `POST /functions/v1/sync-affiliate`
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** Format: uuid */
                        destination_id: string;
                        /**
                         * Format: uuid
                         * @description Required with the service-role key
                         */
                        tenant_id?: string;
                    };
                };
            };
            responses: {
                /** @description Queued */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["AcceptedJob"];
                    };
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No such record in this tenant (NOT_FOUND) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large (PAYLOAD_TOO_LARGE) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/functions/v1/sync-affiliate/jobs/sweep": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Job: queue the syncs of scheduled destinations that are due, then run due and stalled sync jobs
         * @description Supabase address: `POST /functions/v1/sync-affiliate/jobs/sweep`
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Counts */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            succeeded: number;
                            failed: number;
                            retried: number;
                            /** @description Scheduled runs queued by this sweep */
                            scheduled: number;
                        };
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/affiliate/destinations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The tenant's affiliate destinations with their programs, newest first
         * @description Supabase address: `GET /functions/v1/sync-affiliate/destinations`
         */
        get: {
            parameters: {
                query?: {
                    /** @description Page size (1-100) */
                    limit?: number;
                    /** @description next_cursor from the previous page */
                    cursor?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page of destinations */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["AffiliateDestination"][];
                            next_cursor: string | null;
                        };
                    };
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Create the affiliate destination of a site (one per site), optionally on a schedule
         * @description Supabase address: `POST /functions/v1/sync-affiliate/destinations`
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /**
                         * Format: uuid
                         * @description The site whose articles embed the products
                         */
                        site_id: string;
                        name: string;
                        /**
                         * @default null
                         * @enum {string|null}
                         */
                        schedule?: "hourly" | "every_6_hours" | "daily" | null;
                        /** @default true */
                        enabled?: boolean;
                    };
                };
            };
            responses: {
                /** @description Created */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["AffiliateDestination"];
                    };
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Conflicts with an existing record (CONFLICT) */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large (PAYLOAD_TOO_LARGE) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/affiliate/destinations/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One destination with its programs and its last sync
         * @description Supabase address: `GET /functions/v1/sync-affiliate/destinations/{id}`
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The destination */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["AffiliateDestination"];
                    };
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No such record in this tenant (NOT_FOUND) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /**
         * Delete a destination, its programs and its products
         * @description Supabase address: `DELETE /functions/v1/sync-affiliate/destinations/{id}`
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Deleted */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No such record in this tenant (NOT_FOUND) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        /**
         * Rename a destination, change its schedule, or pause it
         * @description Supabase address: `PATCH /functions/v1/sync-affiliate/destinations/{id}`
         */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        name?: string;
                        /** @enum {string|null} */
                        schedule?: "hourly" | "every_6_hours" | "daily" | null;
                        enabled?: boolean;
                    };
                };
            };
            responses: {
                /** @description Updated */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["AffiliateDestination"];
                    };
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No such record in this tenant (NOT_FOUND) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large (PAYLOAD_TOO_LARGE) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/affiliate/destinations/{id}/programs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Attach an affiliate program (a network, merchant ids, feed or query, tracking id, credential)
         * @description Supabase address: `POST /functions/v1/sync-affiliate/destinations/{id}/programs`
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @enum {string} */
                        network: "awin";
                        config: {
                            /** @description Awin feed ids (fid) from Create-a-Feed; the download key is the program's credential */
                            feed_ids: string[];
                            /** @default en */
                            language?: string;
                        };
                        name: string;
                        /**
                         * @description Merchant / advertiser ids: only their products are kept (all when empty)
                         * @default []
                         */
                        merchant_ids?: string[];
                        /**
                         * @description Awin clickref, CJ website id (PID), Amazon partner tag; the feed field for generic feeds
                         * @default null
                         */
                        tracking_id?: string | null;
                        /**
                         * @description The vault credential's name when the tenant has several for the network
                         * @default null
                         */
                        credential_name?: string | null;
                        /**
                         * @description Expected ISO 4217 currency: a feed priced in another fails the sync
                         * @default null
                         */
                        currency?: string | null;
                    } | {
                        /** @enum {string} */
                        network: "cj";
                        config: {
                            /** @description Your CJ company id (cid) */
                            company_id: string;
                            /** @default [] */
                            keywords?: string[];
                            /** @default 1000 */
                            page_size?: number;
                            /** @default 10000 */
                            max_products?: number;
                        };
                        name: string;
                        /**
                         * @description Merchant / advertiser ids: only their products are kept (all when empty)
                         * @default []
                         */
                        merchant_ids?: string[];
                        /**
                         * @description Awin clickref, CJ website id (PID), Amazon partner tag; the feed field for generic feeds
                         * @default null
                         */
                        tracking_id?: string | null;
                        /**
                         * @description The vault credential's name when the tenant has several for the network
                         * @default null
                         */
                        credential_name?: string | null;
                        /**
                         * @description Expected ISO 4217 currency: a feed priced in another fails the sync
                         * @default null
                         */
                        currency?: string | null;
                    } | {
                        /** @enum {string} */
                        network: "amazon";
                        config: {
                            /** @default www.amazon.com */
                            marketplace?: string;
                            keywords: string;
                            /** @default All */
                            search_index?: string;
                            /** @default 10 */
                            max_pages?: number;
                        };
                        name: string;
                        /**
                         * @description Merchant / advertiser ids: only their products are kept (all when empty)
                         * @default []
                         */
                        merchant_ids?: string[];
                        /**
                         * @description Awin clickref, CJ website id (PID), Amazon partner tag; the feed field for generic feeds
                         * @default null
                         */
                        tracking_id?: string | null;
                        /**
                         * @description The vault credential's name when the tenant has several for the network
                         * @default null
                         */
                        credential_name?: string | null;
                        /**
                         * @description Expected ISO 4217 currency: a feed priced in another fails the sync
                         * @default null
                         */
                        currency?: string | null;
                    } | {
                        /** @enum {string} */
                        network: "feed";
                        config: {
                            /** Format: uri */
                            url: string;
                            /**
                             * @description csv (Google Merchant column names, comma or the delimiter given), json (JSON Lines, or one array up to 20 MiB), google_merchant_xml (RSS 2.0 or Atom with g: elements)
                             * @enum {string}
                             */
                            format: "csv" | "json" | "google_merchant_xml";
                            /**
                             * @default ,
                             * @enum {string}
                             */
                            delimiter?: "," | ";" | "\t" | "|";
                        };
                        name: string;
                        /**
                         * @description Merchant / advertiser ids: only their products are kept (all when empty)
                         * @default []
                         */
                        merchant_ids?: string[];
                        /**
                         * @description Awin clickref, CJ website id (PID), Amazon partner tag; the feed field for generic feeds
                         * @default null
                         */
                        tracking_id?: string | null;
                        /**
                         * @description The vault credential's name when the tenant has several for the network
                         * @default null
                         */
                        credential_name?: string | null;
                        /**
                         * @description Expected ISO 4217 currency: a feed priced in another fails the sync
                         * @default null
                         */
                        currency?: string | null;
                    };
                };
            };
            responses: {
                /** @description Attached */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["AffiliateProgram"];
                    };
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No such record in this tenant (NOT_FOUND) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large (PAYLOAD_TOO_LARGE) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/affiliate/destinations/{id}/programs/{program_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Detach a program; its products go with it
         * @description Supabase address: `DELETE /functions/v1/sync-affiliate/destinations/{id}/programs/{program_id}`
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    program_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Detached */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No such record in this tenant (NOT_FOUND) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/products": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A destination's synced products, newest first, by words and availability (GET /v1/products)
         * @description Supabase address: `GET /functions/v1/sync-affiliate/products`
         */
        get: {
            parameters: {
                query: {
                    /** @description Page size (1-100) */
                    limit?: number;
                    /** @description next_cursor from the previous page */
                    cursor?: string;
                    destination_id: string;
                    /** @description Words in the title, merchant or GTIN */
                    q?: string;
                    availability?: "in_stock" | "out_of_stock" | "preorder" | "backorder" | "unavailable";
                    /** @description Include the network's raw record */
                    include_raw?: "true" | "false";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page of products */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["AffiliateProduct"][];
                            next_cursor: string | null;
                        };
                    };
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No such record in this tenant (NOT_FOUND) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/assistant/conversations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List conversations, newest first (keyset pagination); `q` searches titles and messages
         * @description Supabase address: `GET /functions/v1/assistant/conversations`
         */
        get: {
            parameters: {
                query?: {
                    /** @description Page size (1-100) */
                    limit?: number;
                    /** @description next_cursor from the previous page */
                    cursor?: string;
                    /** @description Full-text search over titles and message content (every word; the last as a prefix) */
                    q?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page of conversations */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["AssistantConversationList"];
                    };
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Start a conversation with the assistant
         * @description A conversation belongs to the member who starts it (a key: its creator). Members see their own conversations; owners and admins see all of the tenant.
         *
         *     Supabase address: `POST /functions/v1/assistant/conversations`
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": components["schemas"]["CreateConversation"];
                };
            };
            responses: {
                /** @description The conversation */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["AssistantConversation"];
                    };
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large (PAYLOAD_TOO_LARGE) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/assistant/conversations/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A conversation with its messages, tool calls and turns
         * @description Everything is stored as it completes, so this shows where a turn in progress got to (its last turn has status running or awaiting_approval).
         *
         *     Supabase address: `GET /functions/v1/assistant/conversations/{id}`
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The conversation */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["AssistantConversationDetail"];
                    };
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No such record in this tenant (NOT_FOUND) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /**
         * Delete a conversation with its messages and tool calls
         * @description Supabase address: `DELETE /functions/v1/assistant/conversations/{id}`
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Deleted */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No such record in this tenant (NOT_FOUND) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        /**
         * Rename a conversation
         * @description Those who may see it (its creator; owners and admins) rename it; a title set here is never replaced by an automatic one.
         *
         *     Supabase address: `PATCH /functions/v1/assistant/conversations/{id}`
         */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["RenameConversation"];
                };
            };
            responses: {
                /** @description The conversation */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["AssistantConversation"];
                    };
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No such record in this tenant (NOT_FOUND) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large (PAYLOAD_TOO_LARGE) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/v1/assistant/conversations/{id}/messages": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a message: runs one assistant turn (JSON, or streamed with Accept: text/event-stream)
         * @description The model is the tenant's AI credential (Credentials, category AI: OpenAI-compatible or Anthropic); without one the answer is 422 naming the credential to add, and nothing is stored. The tools are those the tool server lists for the tenant, each call decided by the tenant's tool permissions. Tokens are metered against the Assistant API: past a Free quota 429 QUOTA_EXCEEDED before the provider is called; a turn in progress stops at its next model call once the quota is spent. A second message while a turn runs (or waits for approval) is 409 CONFLICT.
         *
         *     With `Accept: text/event-stream` the answer is a stream of server-sent events, `event:` the name and `data:` one JSON object:
         *     - `turn.started`: {turn_id, conversation_id, message}: the stored user message
         *     - `text.delta`: {text}: the next piece of the assistant text
         *     - `tool_call.started`: {id, name, tool, arguments}: the model called a tool; it runs now
         *     - `tool_call.approval_required`: {id, name, tool, arguments}: the call waits for an owner or admin (POST .../approvals/{id})
         *     - `tool_call.completed`: {id, name, tool, status, result}: ok, refused, invalid, failed, denied, interrupted or cancelled
         *     - `usage`: {input_tokens, output_tokens, turn: {input_tokens, output_tokens}}: one model call's tokens
         *     - `turn.ended`: the turn result: {turn, message, tool_calls, usage, quota} (as the JSON answer)
         *     The stream always ends with `turn.ended`. A turn whose provider fails ends with status `failed` and the reason in `turn.error`; what was stored stays stored.
         *     Each event has an `id:`, its number in the turn: a client that lost the stream re-attaches with GET /v1/assistant/conversations/{id}/turns/{turn_id}/stream and `Last-Event-ID`.
         *     With `?stream=ai-sdk` (or the header `x-stream-format: ai-sdk`) the same turn comes as the Vercel AI SDK's UI message stream (v1, header `x-vercel-ai-ui-message-stream: v1`): `start`, `text-start`/`text-delta`/`text-end`, `tool-input-available`, `tool-output-available` (`tool-output-error`, `tool-output-denied`), `tool-approval-request` (its `approvalId` is the call id to approve), `finish`, then `[DONE]`; see docs/assistant.md for `useChat`.
         *
         *     Supabase address: `POST /functions/v1/assistant/conversations/{id}/messages`
         */
        post: {
            parameters: {
                query?: {
                    /** @description `ai-sdk`: the answer is the Vercel AI SDK UI message stream (header `x-vercel-ai-ui-message-stream: v1`), whatever the Accept header says; `sse`: the platform's own server-sent events. The header `x-stream-format` says the same (`?stream` wins). */
                    stream?: "ai-sdk" | "sse";
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["PostMessage"];
                };
            };
            responses: {
                /** @description The turn result (JSON), or its events (text/event-stream) */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["AssistantTurnResult"];
                        "text/event-stream": string;
                    };
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No such record in this tenant (NOT_FOUND) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Conflicts with an existing record (CONFLICT) */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large (PAYLOAD_TOO_LARGE) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The request could not be carried out (UNPROCESSABLE) */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/assistant/conversations/{id}/approvals/{call_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Approve or deny a tool call that waits for approval; the turn then resumes
         * @description Owners and admins (a key acts as its creator). When the last waiting call of the turn is decided, the turn resumes here (on whichever instance this request reached): approved calls run, denied ones are reported to the model as denied. A call that is not waiting is 409.
         *
         *     With `Accept: text/event-stream` the answer is a stream of server-sent events, `event:` the name and `data:` one JSON object:
         *     - `turn.started`: {turn_id, conversation_id, message}: the stored user message
         *     - `text.delta`: {text}: the next piece of the assistant text
         *     - `tool_call.started`: {id, name, tool, arguments}: the model called a tool; it runs now
         *     - `tool_call.approval_required`: {id, name, tool, arguments}: the call waits for an owner or admin (POST .../approvals/{id})
         *     - `tool_call.completed`: {id, name, tool, status, result}: ok, refused, invalid, failed, denied, interrupted or cancelled
         *     - `usage`: {input_tokens, output_tokens, turn: {input_tokens, output_tokens}}: one model call's tokens
         *     - `turn.ended`: the turn result: {turn, message, tool_calls, usage, quota} (as the JSON answer)
         *     The stream always ends with `turn.ended`. A turn whose provider fails ends with status `failed` and the reason in `turn.error`; what was stored stays stored.
         *     Each event has an `id:`, its number in the turn: a client that lost the stream re-attaches with GET /v1/assistant/conversations/{id}/turns/{turn_id}/stream and `Last-Event-ID`.
         *     With `?stream=ai-sdk` (or the header `x-stream-format: ai-sdk`) the same turn comes as the Vercel AI SDK's UI message stream (v1, header `x-vercel-ai-ui-message-stream: v1`): `start`, `text-start`/`text-delta`/`text-end`, `tool-input-available`, `tool-output-available` (`tool-output-error`, `tool-output-denied`), `tool-approval-request` (its `approvalId` is the call id to approve), `finish`, then `[DONE]`; see docs/assistant.md for `useChat`.
         *
         *     Supabase address: `POST /functions/v1/assistant/conversations/{id}/approvals/{call_id}`
         */
        post: {
            parameters: {
                query?: {
                    /** @description `ai-sdk`: the answer is the Vercel AI SDK UI message stream (header `x-vercel-ai-ui-message-stream: v1`), whatever the Accept header says; `sse`: the platform's own server-sent events. The header `x-stream-format` says the same (`?stream` wins). */
                    stream?: "ai-sdk" | "sse";
                };
                header?: never;
                path: {
                    id: string;
                    call_id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["ToolCallApproval"];
                };
            };
            responses: {
                /** @description The turn result (JSON), or its events (text/event-stream) */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["AssistantTurnResult"];
                        "text/event-stream": string;
                    };
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No such record in this tenant (NOT_FOUND) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Conflicts with an existing record (CONFLICT) */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/assistant/approvals": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The approvals inbox: tool calls that wait (or waited) for approval, newest first
         * @description Across conversations and automations, each with its tool, arguments, what asked and when it expires. Owners and admins see every one of the tenant; members those of their own conversations. Keyset pages.
         *
         *     Supabase address: `GET /functions/v1/assistant/approvals`
         */
        get: {
            parameters: {
                query?: {
                    /** @description Page size (1-100) */
                    limit?: number;
                    /** @description next_cursor from the previous page */
                    cursor?: string;
                    /** @description pending (the default), approved, denied or expired */
                    status?: "pending" | "approved" | "denied" | "expired";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A page of approvals */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["AssistantApprovalList"];
                    };
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/assistant/approvals/{call_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Approve or deny a waiting tool call from the inbox; the turn then resumes
         * @description As POST /conversations/{id}/approvals/{call_id}, by the call alone. A call that is not waiting (decided or expired) is 409.
         *
         *     With `Accept: text/event-stream` the answer is a stream of server-sent events, `event:` the name and `data:` one JSON object:
         *     - `turn.started`: {turn_id, conversation_id, message}: the stored user message
         *     - `text.delta`: {text}: the next piece of the assistant text
         *     - `tool_call.started`: {id, name, tool, arguments}: the model called a tool; it runs now
         *     - `tool_call.approval_required`: {id, name, tool, arguments}: the call waits for an owner or admin (POST .../approvals/{id})
         *     - `tool_call.completed`: {id, name, tool, status, result}: ok, refused, invalid, failed, denied, interrupted or cancelled
         *     - `usage`: {input_tokens, output_tokens, turn: {input_tokens, output_tokens}}: one model call's tokens
         *     - `turn.ended`: the turn result: {turn, message, tool_calls, usage, quota} (as the JSON answer)
         *     The stream always ends with `turn.ended`. A turn whose provider fails ends with status `failed` and the reason in `turn.error`; what was stored stays stored.
         *     Each event has an `id:`, its number in the turn: a client that lost the stream re-attaches with GET /v1/assistant/conversations/{id}/turns/{turn_id}/stream and `Last-Event-ID`.
         *     With `?stream=ai-sdk` (or the header `x-stream-format: ai-sdk`) the same turn comes as the Vercel AI SDK's UI message stream (v1, header `x-vercel-ai-ui-message-stream: v1`): `start`, `text-start`/`text-delta`/`text-end`, `tool-input-available`, `tool-output-available` (`tool-output-error`, `tool-output-denied`), `tool-approval-request` (its `approvalId` is the call id to approve), `finish`, then `[DONE]`; see docs/assistant.md for `useChat`.
         *
         *     Supabase address: `POST /functions/v1/assistant/approvals/{call_id}`
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    call_id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["ToolCallApproval"];
                };
            };
            responses: {
                /** @description The turn result (JSON), or its events (text/event-stream) */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["AssistantTurnResult"];
                        "text/event-stream": string;
                    };
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No such record in this tenant (NOT_FOUND) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Conflicts with an existing record (CONFLICT) */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/assistant/conversations/{id}/turns/{turn_id}/stream": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Re-attach to a turn's stream: the events after the last one seen, then the rest as they come
         * @description Every event of a turn is numbered (the SSE `id:`) and kept, so a client that reloads or lost its connection re-attaches here, on any instance, with `Last-Event-ID` (EventSource sends it by itself) or `?last_event_id=`: it gets every event after that one, nothing twice, and then the turn's events as they happen, until `turn.ended`. Without either it gets the turn's stream from the start. A finished turn's stream replays and ends; events are kept for 24 hours after the turn ends (after that, just `turn.ended`). One request follows a turn for at most 2 minutes and then ends without `turn.ended`: resume again from the last id.
         *
         *     With `Accept: text/event-stream` the answer is a stream of server-sent events, `event:` the name and `data:` one JSON object:
         *     - `turn.started`: {turn_id, conversation_id, message}: the stored user message
         *     - `text.delta`: {text}: the next piece of the assistant text
         *     - `tool_call.started`: {id, name, tool, arguments}: the model called a tool; it runs now
         *     - `tool_call.approval_required`: {id, name, tool, arguments}: the call waits for an owner or admin (POST .../approvals/{id})
         *     - `tool_call.completed`: {id, name, tool, status, result}: ok, refused, invalid, failed, denied, interrupted or cancelled
         *     - `usage`: {input_tokens, output_tokens, turn: {input_tokens, output_tokens}}: one model call's tokens
         *     - `turn.ended`: the turn result: {turn, message, tool_calls, usage, quota} (as the JSON answer)
         *     The stream always ends with `turn.ended`. A turn whose provider fails ends with status `failed` and the reason in `turn.error`; what was stored stays stored.
         *     Each event has an `id:`, its number in the turn: a client that lost the stream re-attaches with GET /v1/assistant/conversations/{id}/turns/{turn_id}/stream and `Last-Event-ID`.
         *     With `?stream=ai-sdk` (or the header `x-stream-format: ai-sdk`) the same turn comes as the Vercel AI SDK's UI message stream (v1, header `x-vercel-ai-ui-message-stream: v1`): `start`, `text-start`/`text-delta`/`text-end`, `tool-input-available`, `tool-output-available` (`tool-output-error`, `tool-output-denied`), `tool-approval-request` (its `approvalId` is the call id to approve), `finish`, then `[DONE]`; see docs/assistant.md for `useChat`.
         *
         *     Supabase address: `GET /functions/v1/assistant/conversations/{id}/turns/{turn_id}/stream`
         */
        get: {
            parameters: {
                query?: {
                    /** @description `ai-sdk`: the answer is the Vercel AI SDK UI message stream (header `x-vercel-ai-ui-message-stream: v1`), whatever the Accept header says; `sse`: the platform's own server-sent events. The header `x-stream-format` says the same (`?stream` wins). */
                    stream?: "ai-sdk" | "sse";
                    /** @description The last event id seen, for clients that cannot send the `Last-Event-ID` header (the header wins) */
                    last_event_id?: number | null;
                };
                header?: {
                    /** @description The last event id seen */
                    "last-event-id"?: number | null;
                };
                path: {
                    id: string;
                    turn_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The turn's events (text/event-stream; the AI SDK's format with ?stream=ai-sdk) */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "text/event-stream": string;
                    };
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No such record in this tenant (NOT_FOUND) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/assistant/conversations/{id}/turns/{turn_id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Stop a running turn
         * @description Marks the turn for cancellation, whichever instance runs it: it records status `cancelled` at its next step (before its next model call, or before the tool calls the model asked for). A tool call not yet started is not started (its status is `cancelled`); what the model already answered is kept and its tokens are metered. A turn waiting for approval is cancelled at once. A turn that has ended is 409.
         *
         *     Supabase address: `POST /functions/v1/assistant/conversations/{id}/turns/{turn_id}/cancel`
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    turn_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The turn, marked */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["AssistantCancelledTurn"];
                    };
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No such record in this tenant (NOT_FOUND) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Conflicts with an existing record (CONFLICT) */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/assistant/conversations/{id}/regenerate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Answer the last user message again (JSON, or streamed with Accept: text/event-stream)
         * @description Runs a turn exactly as POST …/messages does, answering the conversation's last user message again. The earlier answer is kept as an alternative (`alternatives` in GET …/conversations/{id}), not overwritten. A conversation without an answer yet, or with a turn still running, is 409.
         *
         *     With `Accept: text/event-stream` the answer is a stream of server-sent events, `event:` the name and `data:` one JSON object:
         *     - `turn.started`: {turn_id, conversation_id, message}: the stored user message
         *     - `text.delta`: {text}: the next piece of the assistant text
         *     - `tool_call.started`: {id, name, tool, arguments}: the model called a tool; it runs now
         *     - `tool_call.approval_required`: {id, name, tool, arguments}: the call waits for an owner or admin (POST .../approvals/{id})
         *     - `tool_call.completed`: {id, name, tool, status, result}: ok, refused, invalid, failed, denied, interrupted or cancelled
         *     - `usage`: {input_tokens, output_tokens, turn: {input_tokens, output_tokens}}: one model call's tokens
         *     - `turn.ended`: the turn result: {turn, message, tool_calls, usage, quota} (as the JSON answer)
         *     The stream always ends with `turn.ended`. A turn whose provider fails ends with status `failed` and the reason in `turn.error`; what was stored stays stored.
         *     Each event has an `id:`, its number in the turn: a client that lost the stream re-attaches with GET /v1/assistant/conversations/{id}/turns/{turn_id}/stream and `Last-Event-ID`.
         *     With `?stream=ai-sdk` (or the header `x-stream-format: ai-sdk`) the same turn comes as the Vercel AI SDK's UI message stream (v1, header `x-vercel-ai-ui-message-stream: v1`): `start`, `text-start`/`text-delta`/`text-end`, `tool-input-available`, `tool-output-available` (`tool-output-error`, `tool-output-denied`), `tool-approval-request` (its `approvalId` is the call id to approve), `finish`, then `[DONE]`; see docs/assistant.md for `useChat`.
         *
         *     Supabase address: `POST /functions/v1/assistant/conversations/{id}/regenerate`
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The turn result (JSON), or its events (text/event-stream) */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["AssistantTurnResult"];
                        "text/event-stream": string;
                    };
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No such record in this tenant (NOT_FOUND) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Conflicts with an existing record (CONFLICT) */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The request could not be carried out (UNPROCESSABLE) */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/assistant/conversations/{id}/messages/{message_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Edit the last user message and run a turn on it (JSON, or streamed with Accept: text/event-stream)
         * @description Replaces the last user message with `content` and answers it as POST …/messages does. The earlier message and its answer are kept as an alternative (`alternatives` in GET …/conversations/{id}). A message that is not the last user message, or a turn still running, is 409.
         *
         *     With `Accept: text/event-stream` the answer is a stream of server-sent events, `event:` the name and `data:` one JSON object:
         *     - `turn.started`: {turn_id, conversation_id, message}: the stored user message
         *     - `text.delta`: {text}: the next piece of the assistant text
         *     - `tool_call.started`: {id, name, tool, arguments}: the model called a tool; it runs now
         *     - `tool_call.approval_required`: {id, name, tool, arguments}: the call waits for an owner or admin (POST .../approvals/{id})
         *     - `tool_call.completed`: {id, name, tool, status, result}: ok, refused, invalid, failed, denied, interrupted or cancelled
         *     - `usage`: {input_tokens, output_tokens, turn: {input_tokens, output_tokens}}: one model call's tokens
         *     - `turn.ended`: the turn result: {turn, message, tool_calls, usage, quota} (as the JSON answer)
         *     The stream always ends with `turn.ended`. A turn whose provider fails ends with status `failed` and the reason in `turn.error`; what was stored stays stored.
         *     Each event has an `id:`, its number in the turn: a client that lost the stream re-attaches with GET /v1/assistant/conversations/{id}/turns/{turn_id}/stream and `Last-Event-ID`.
         *     With `?stream=ai-sdk` (or the header `x-stream-format: ai-sdk`) the same turn comes as the Vercel AI SDK's UI message stream (v1, header `x-vercel-ai-ui-message-stream: v1`): `start`, `text-start`/`text-delta`/`text-end`, `tool-input-available`, `tool-output-available` (`tool-output-error`, `tool-output-denied`), `tool-approval-request` (its `approvalId` is the call id to approve), `finish`, then `[DONE]`; see docs/assistant.md for `useChat`.
         *
         *     Supabase address: `PUT /functions/v1/assistant/conversations/{id}/messages/{message_id}`
         */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    message_id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["PostMessage"];
                };
            };
            responses: {
                /** @description The turn result (JSON), or its events (text/event-stream) */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["AssistantTurnResult"];
                        "text/event-stream": string;
                    };
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No such record in this tenant (NOT_FOUND) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Conflicts with an existing record (CONFLICT) */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large (PAYLOAD_TOO_LARGE) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The request could not be carried out (UNPROCESSABLE) */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/assistant/settings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The assistant's model: provider, model, credential environment, and what the next turn will use
         * @description Supabase address: `GET /functions/v1/assistant/settings`
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The settings */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["AssistantSettings"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        /**
         * Choose the assistant's provider and model (owners and admins)
         * @description Supabase address: `PUT /functions/v1/assistant/settings`
         */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["AssistantSettingsUpdate"];
                };
            };
            responses: {
                /** @description The settings */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["AssistantSettings"];
                    };
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large (PAYLOAD_TOO_LARGE) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/assistant/automations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The tenant's automations with their last and next run
         * @description Supabase address: `GET /functions/v1/assistant/automations`
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Automations */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["AutomationList"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Save an instruction the assistant runs on a schedule (owners and admins)
         * @description Each run is an assistant turn in a conversation of its own, as the member who saved it, with triggered_by = automation in the usage log. A tool that needs approval is not run unattended: the turn waits for an owner or admin.
         *
         *     Supabase address: `POST /functions/v1/assistant/automations`
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["AutomationInput"];
                };
            };
            responses: {
                /** @description The automation */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Automation"];
                    };
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large (PAYLOAD_TOO_LARGE) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/assistant/automations/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete an automation (its runs go; their conversations stay)
         * @description Supabase address: `DELETE /functions/v1/assistant/automations/{id}`
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Deleted */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No such record in this tenant (NOT_FOUND) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        /**
         * Change, pause (enabled: false) or resume an automation
         * @description Supabase address: `PATCH /functions/v1/assistant/automations/{id}`
         */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["AutomationUpdate"];
                };
            };
            responses: {
                /** @description The automation */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Automation"];
                    };
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No such record in this tenant (NOT_FOUND) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Body too large (PAYLOAD_TOO_LARGE) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/v1/assistant/automations/{id}/runs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * An automation's runs, newest first, each with its conversation and turn status
         * @description Supabase address: `GET /functions/v1/assistant/automations/{id}/runs`
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Runs */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["AutomationRunList"];
                    };
                };
                /** @description Invalid request (VALIDATION_ERROR) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description The credential lacks access (INSUFFICIENT_PERMISSIONS) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description No such record in this tenant (NOT_FOUND) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Rate limit exceeded (RATE_LIMITED) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/functions/v1/assistant/jobs/sweep": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Job: start due automations, resume turns a stopped instance left (lease ran out), mark failed ones
         * @description Supabase address: `POST /functions/v1/assistant/jobs/sweep`
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Counts */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            succeeded: number;
                            failed: number;
                            retried: number;
                            /** @description Scheduled runs queued by this sweep */
                            scheduled: number;
                        };
                    };
                };
                /** @description Missing or invalid credentials (AUTH_REQUIRED) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface webhooks {
    "tenant.created": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A new tenant signs up
         * @description Sent to each subscription whose `events` include `tenant.created`, signed (see the headers). Answer 2xx within 10 s; anything else is retried (1 min, 5 min, 30 min, 2 h).
         */
        post: {
            parameters: {
                query?: never;
                header: {
                    /** @description sha256= + lowercase hex HMAC-SHA256(secret, raw body) */
                    "x-service-signature": string;
                    /** @description Unix seconds when the attempt was sent */
                    "x-service-timestamp": string;
                    /** @description sha256= + hex HMAC-SHA256(secret, "<timestamp>." + body); one per active secret */
                    "x-service-timestamp-signature": string;
                    /** @description The payload's id */
                    "x-service-event-id": string;
                    /** @description The payload's type */
                    "x-service-event-type": string;
                    "x-service-delivery-id": string;
                    "x-service-delivery-attempt": string;
                    /** @description Standard Webhooks: the event id (evt_…) */
                    "webhook-id": string;
                    /** @description Standard Webhooks: Unix seconds */
                    "webhook-timestamp": string;
                    /** @description Standard Webhooks: v1,<base64 HMAC-SHA256>, space-separated during a rotation */
                    "webhook-signature": string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description The same on every attempt: deduplicate on it */
                        id: string;
                        /** @enum {string} */
                        type: "tenant.created";
                        /** Format: date-time */
                        created_at: string;
                        /**
                         * @example {
                         *       "tenant_id": "5a1e6c2b-3d4f-4a8e-9b7c-1e2d3f4a5b6c",
                         *       "name": "Ada's team",
                         *       "plan": "free",
                         *       "owner_user_id": "7c9e2a1b-4d3f-4e5a-8b6c-2d1e3f4a5b7c"
                         *     }
                         */
                        data: {
                            /** Format: uuid */
                            tenant_id: string;
                            name: string;
                            /** @enum {string} */
                            plan: "free" | "pro" | "business" | "enterprise";
                            /** Format: uuid */
                            owner_user_id: string;
                        };
                    };
                };
            };
            responses: {
                /** @description Any 2xx status acknowledges the delivery */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "tenant.updated": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The tenant's settings change (name, plan or settings)
         * @description Sent to each subscription whose `events` include `tenant.updated`, signed (see the headers). Answer 2xx within 10 s; anything else is retried (1 min, 5 min, 30 min, 2 h).
         */
        post: {
            parameters: {
                query?: never;
                header: {
                    /** @description sha256= + lowercase hex HMAC-SHA256(secret, raw body) */
                    "x-service-signature": string;
                    /** @description Unix seconds when the attempt was sent */
                    "x-service-timestamp": string;
                    /** @description sha256= + hex HMAC-SHA256(secret, "<timestamp>." + body); one per active secret */
                    "x-service-timestamp-signature": string;
                    /** @description The payload's id */
                    "x-service-event-id": string;
                    /** @description The payload's type */
                    "x-service-event-type": string;
                    "x-service-delivery-id": string;
                    "x-service-delivery-attempt": string;
                    /** @description Standard Webhooks: the event id (evt_…) */
                    "webhook-id": string;
                    /** @description Standard Webhooks: Unix seconds */
                    "webhook-timestamp": string;
                    /** @description Standard Webhooks: v1,<base64 HMAC-SHA256>, space-separated during a rotation */
                    "webhook-signature": string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description The same on every attempt: deduplicate on it */
                        id: string;
                        /** @enum {string} */
                        type: "tenant.updated";
                        /** Format: date-time */
                        created_at: string;
                        /**
                         * @example {
                         *       "tenant_id": "5a1e6c2b-3d4f-4a8e-9b7c-1e2d3f4a5b6c",
                         *       "name": "Ada & co",
                         *       "plan": "free",
                         *       "changed": [
                         *         "name"
                         *       ],
                         *       "previous": {
                         *         "name": "Ada's team"
                         *       },
                         *       "updated_by": "7c9e2a1b-4d3f-4e5a-8b6c-2d1e3f4a5b7c"
                         *     }
                         */
                        data: {
                            /** Format: uuid */
                            tenant_id: string;
                            name: string;
                            /** @enum {string} */
                            plan: "free" | "pro" | "business" | "enterprise";
                            changed: ("name" | "plan" | "settings")[];
                            /** @description The former value of each changed field (settings are not repeated) */
                            previous: {
                                name?: string;
                                /** @enum {string} */
                                plan?: "free" | "pro" | "business" | "enterprise";
                            };
                            /**
                             * Format: uuid
                             * @description null when billing changed the plan
                             */
                            updated_by: string | null;
                        };
                    };
                };
            };
            responses: {
                /** @description Any 2xx status acknowledges the delivery */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "content.published": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * An article is published
         * @description Sent to each subscription whose `events` include `content.published`, signed (see the headers). Answer 2xx within 10 s; anything else is retried (1 min, 5 min, 30 min, 2 h).
         */
        post: {
            parameters: {
                query?: never;
                header: {
                    /** @description sha256= + lowercase hex HMAC-SHA256(secret, raw body) */
                    "x-service-signature": string;
                    /** @description Unix seconds when the attempt was sent */
                    "x-service-timestamp": string;
                    /** @description sha256= + hex HMAC-SHA256(secret, "<timestamp>." + body); one per active secret */
                    "x-service-timestamp-signature": string;
                    /** @description The payload's id */
                    "x-service-event-id": string;
                    /** @description The payload's type */
                    "x-service-event-type": string;
                    "x-service-delivery-id": string;
                    "x-service-delivery-attempt": string;
                    /** @description Standard Webhooks: the event id (evt_…) */
                    "webhook-id": string;
                    /** @description Standard Webhooks: Unix seconds */
                    "webhook-timestamp": string;
                    /** @description Standard Webhooks: v1,<base64 HMAC-SHA256>, space-separated during a rotation */
                    "webhook-signature": string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description The same on every attempt: deduplicate on it */
                        id: string;
                        /** @enum {string} */
                        type: "content.published";
                        /** Format: date-time */
                        created_at: string;
                        /**
                         * @example {
                         *       "article_id": "1b2c3d4e-5f6a-4b7c-8d9e-0f1a2b3c4d5e",
                         *       "title": "Hello world",
                         *       "site_id": "6a7b8c9d-0e1f-4a2b-8c4d-5e6f7a8b9c0d",
                         *       "published_at": "2026-11-21T12:00:00.000Z"
                         *     }
                         */
                        data: {
                            /** Format: uuid */
                            article_id: string;
                            title: string;
                            /** Format: uuid */
                            site_id: string;
                            /** Format: date-time */
                            published_at: string;
                        };
                    };
                };
            };
            responses: {
                /** @description Any 2xx status acknowledges the delivery */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "content.updated": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * An article is created, modified or deleted
         * @description Sent to each subscription whose `events` include `content.updated`, signed (see the headers). Answer 2xx within 10 s; anything else is retried (1 min, 5 min, 30 min, 2 h).
         */
        post: {
            parameters: {
                query?: never;
                header: {
                    /** @description sha256= + lowercase hex HMAC-SHA256(secret, raw body) */
                    "x-service-signature": string;
                    /** @description Unix seconds when the attempt was sent */
                    "x-service-timestamp": string;
                    /** @description sha256= + hex HMAC-SHA256(secret, "<timestamp>." + body); one per active secret */
                    "x-service-timestamp-signature": string;
                    /** @description The payload's id */
                    "x-service-event-id": string;
                    /** @description The payload's type */
                    "x-service-event-type": string;
                    "x-service-delivery-id": string;
                    "x-service-delivery-attempt": string;
                    /** @description Standard Webhooks: the event id (evt_…) */
                    "webhook-id": string;
                    /** @description Standard Webhooks: Unix seconds */
                    "webhook-timestamp": string;
                    /** @description Standard Webhooks: v1,<base64 HMAC-SHA256>, space-separated during a rotation */
                    "webhook-signature": string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description The same on every attempt: deduplicate on it */
                        id: string;
                        /** @enum {string} */
                        type: "content.updated";
                        /** Format: date-time */
                        created_at: string;
                        /**
                         * @example {
                         *       "article_id": "1b2c3d4e-5f6a-4b7c-8d9e-0f1a2b3c4d5e",
                         *       "site_id": "6a7b8c9d-0e1f-4a2b-8c4d-5e6f7a8b9c0d",
                         *       "title": "Hello world",
                         *       "status": "draft",
                         *       "change": "updated",
                         *       "changed_fields": [
                         *         "title"
                         *       ],
                         *       "updated_at": "2026-11-21T12:00:00.000Z",
                         *       "slug": "hello-world",
                         *       "excerpt": null,
                         *       "feature_image": {
                         *         "url": "https://images.example.com/hello.jpg",
                         *         "alt": "A sunrise"
                         *       },
                         *       "tags": [
                         *         "news"
                         *       ],
                         *       "author_id": "7c9e2a1b-4d3f-4e5a-8b6c-2d1e3f4a5b7c",
                         *       "meta_title": null,
                         *       "meta_description": null,
                         *       "canonical_url": null,
                         *       "publish_at": null
                         *     }
                         */
                        data: {
                            /** Format: uuid */
                            article_id: string;
                            /** Format: uuid */
                            site_id: string;
                            title: string;
                            /** @enum {string} */
                            status: "draft" | "scheduled" | "published";
                            /** @enum {string} */
                            change: "created" | "updated" | "deleted";
                            changed_fields: string[];
                            /** Format: date-time */
                            updated_at: string;
                            slug: string;
                            excerpt: string | null;
                            feature_image: {
                                url: string;
                                alt: string;
                            } | null;
                            /** @description tag slugs */
                            tags: string[];
                            /** Format: uuid */
                            author_id: string | null;
                            meta_title: string | null;
                            meta_description: string | null;
                            canonical_url: string | null;
                            /** Format: date-time */
                            publish_at: string | null;
                            /** Format: uuid */
                            restored_revision_id?: string;
                        };
                    };
                };
            };
            responses: {
                /** @description Any 2xx status acknowledges the delivery */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "content.scheduled": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * An article is scheduled to be published, or rescheduled
         * @description Sent to each subscription whose `events` include `content.scheduled`, signed (see the headers). Answer 2xx within 10 s; anything else is retried (1 min, 5 min, 30 min, 2 h).
         */
        post: {
            parameters: {
                query?: never;
                header: {
                    /** @description sha256= + lowercase hex HMAC-SHA256(secret, raw body) */
                    "x-service-signature": string;
                    /** @description Unix seconds when the attempt was sent */
                    "x-service-timestamp": string;
                    /** @description sha256= + hex HMAC-SHA256(secret, "<timestamp>." + body); one per active secret */
                    "x-service-timestamp-signature": string;
                    /** @description The payload's id */
                    "x-service-event-id": string;
                    /** @description The payload's type */
                    "x-service-event-type": string;
                    "x-service-delivery-id": string;
                    "x-service-delivery-attempt": string;
                    /** @description Standard Webhooks: the event id (evt_…) */
                    "webhook-id": string;
                    /** @description Standard Webhooks: Unix seconds */
                    "webhook-timestamp": string;
                    /** @description Standard Webhooks: v1,<base64 HMAC-SHA256>, space-separated during a rotation */
                    "webhook-signature": string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description The same on every attempt: deduplicate on it */
                        id: string;
                        /** @enum {string} */
                        type: "content.scheduled";
                        /** Format: date-time */
                        created_at: string;
                        /**
                         * @example {
                         *       "article_id": "1b2c3d4e-5f6a-4b7c-8d9e-0f1a2b3c4d5e",
                         *       "site_id": "6a7b8c9d-0e1f-4a2b-8c4d-5e6f7a8b9c0d",
                         *       "title": "Hello world",
                         *       "slug": "hello-world",
                         *       "publish_at": "2026-11-22T08:00:00.000Z",
                         *       "rescheduled": false,
                         *       "scheduled_at": "2026-11-21T12:00:00.000Z"
                         *     }
                         */
                        data: {
                            /** Format: uuid */
                            article_id: string;
                            /** Format: uuid */
                            site_id: string;
                            title: string;
                            slug: string;
                            /** Format: date-time */
                            publish_at: string;
                            rescheduled: boolean;
                            /** Format: date-time */
                            scheduled_at: string;
                        };
                    };
                };
            };
            responses: {
                /** @description Any 2xx status acknowledges the delivery */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "content.unpublished": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A published article goes back to draft, or a schedule is cancelled
         * @description Sent to each subscription whose `events` include `content.unpublished`, signed (see the headers). Answer 2xx within 10 s; anything else is retried (1 min, 5 min, 30 min, 2 h).
         */
        post: {
            parameters: {
                query?: never;
                header: {
                    /** @description sha256= + lowercase hex HMAC-SHA256(secret, raw body) */
                    "x-service-signature": string;
                    /** @description Unix seconds when the attempt was sent */
                    "x-service-timestamp": string;
                    /** @description sha256= + hex HMAC-SHA256(secret, "<timestamp>." + body); one per active secret */
                    "x-service-timestamp-signature": string;
                    /** @description The payload's id */
                    "x-service-event-id": string;
                    /** @description The payload's type */
                    "x-service-event-type": string;
                    "x-service-delivery-id": string;
                    "x-service-delivery-attempt": string;
                    /** @description Standard Webhooks: the event id (evt_…) */
                    "webhook-id": string;
                    /** @description Standard Webhooks: Unix seconds */
                    "webhook-timestamp": string;
                    /** @description Standard Webhooks: v1,<base64 HMAC-SHA256>, space-separated during a rotation */
                    "webhook-signature": string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description The same on every attempt: deduplicate on it */
                        id: string;
                        /** @enum {string} */
                        type: "content.unpublished";
                        /** Format: date-time */
                        created_at: string;
                        /**
                         * @example {
                         *       "article_id": "1b2c3d4e-5f6a-4b7c-8d9e-0f1a2b3c4d5e",
                         *       "site_id": "6a7b8c9d-0e1f-4a2b-8c4d-5e6f7a8b9c0d",
                         *       "title": "Hello world",
                         *       "slug": "hello-world",
                         *       "previous_status": "published",
                         *       "unpublished_at": "2026-11-21T12:00:00.000Z"
                         *     }
                         */
                        data: {
                            /** Format: uuid */
                            article_id: string;
                            /** Format: uuid */
                            site_id: string;
                            title: string;
                            slug: string;
                            /** @enum {string} */
                            previous_status: "published" | "scheduled";
                            /** Format: date-time */
                            unpublished_at: string;
                        };
                    };
                };
            };
            responses: {
                /** @description Any 2xx status acknowledges the delivery */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "site.created": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A site is added
         * @description Sent to each subscription whose `events` include `site.created`, signed (see the headers). Answer 2xx within 10 s; anything else is retried (1 min, 5 min, 30 min, 2 h).
         */
        post: {
            parameters: {
                query?: never;
                header: {
                    /** @description sha256= + lowercase hex HMAC-SHA256(secret, raw body) */
                    "x-service-signature": string;
                    /** @description Unix seconds when the attempt was sent */
                    "x-service-timestamp": string;
                    /** @description sha256= + hex HMAC-SHA256(secret, "<timestamp>." + body); one per active secret */
                    "x-service-timestamp-signature": string;
                    /** @description The payload's id */
                    "x-service-event-id": string;
                    /** @description The payload's type */
                    "x-service-event-type": string;
                    "x-service-delivery-id": string;
                    "x-service-delivery-attempt": string;
                    /** @description Standard Webhooks: the event id (evt_…) */
                    "webhook-id": string;
                    /** @description Standard Webhooks: Unix seconds */
                    "webhook-timestamp": string;
                    /** @description Standard Webhooks: v1,<base64 HMAC-SHA256>, space-separated during a rotation */
                    "webhook-signature": string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description The same on every attempt: deduplicate on it */
                        id: string;
                        /** @enum {string} */
                        type: "site.created";
                        /** Format: date-time */
                        created_at: string;
                        /**
                         * @example {
                         *       "site_id": "6a7b8c9d-0e1f-4a2b-8c4d-5e6f7a8b9c0d",
                         *       "name": "Blog",
                         *       "domain": "blog.example.com",
                         *       "created_at": "2026-11-21T12:00:00.000Z"
                         *     }
                         */
                        data: {
                            /** Format: uuid */
                            site_id: string;
                            name: string;
                            domain: string | null;
                            /** Format: date-time */
                            created_at: string;
                        };
                    };
                };
            };
            responses: {
                /** @description Any 2xx status acknowledges the delivery */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "site.deleted": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A site is removed, with its articles
         * @description Sent to each subscription whose `events` include `site.deleted`, signed (see the headers). Answer 2xx within 10 s; anything else is retried (1 min, 5 min, 30 min, 2 h).
         */
        post: {
            parameters: {
                query?: never;
                header: {
                    /** @description sha256= + lowercase hex HMAC-SHA256(secret, raw body) */
                    "x-service-signature": string;
                    /** @description Unix seconds when the attempt was sent */
                    "x-service-timestamp": string;
                    /** @description sha256= + hex HMAC-SHA256(secret, "<timestamp>." + body); one per active secret */
                    "x-service-timestamp-signature": string;
                    /** @description The payload's id */
                    "x-service-event-id": string;
                    /** @description The payload's type */
                    "x-service-event-type": string;
                    "x-service-delivery-id": string;
                    "x-service-delivery-attempt": string;
                    /** @description Standard Webhooks: the event id (evt_…) */
                    "webhook-id": string;
                    /** @description Standard Webhooks: Unix seconds */
                    "webhook-timestamp": string;
                    /** @description Standard Webhooks: v1,<base64 HMAC-SHA256>, space-separated during a rotation */
                    "webhook-signature": string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description The same on every attempt: deduplicate on it */
                        id: string;
                        /** @enum {string} */
                        type: "site.deleted";
                        /** Format: date-time */
                        created_at: string;
                        /**
                         * @example {
                         *       "site_id": "6a7b8c9d-0e1f-4a2b-8c4d-5e6f7a8b9c0d",
                         *       "name": "Blog",
                         *       "domain": null,
                         *       "articles_deleted": 3,
                         *       "deleted_at": "2026-11-21T12:00:00.000Z"
                         *     }
                         */
                        data: {
                            /** Format: uuid */
                            site_id: string;
                            name: string;
                            domain: string | null;
                            articles_deleted: number;
                            /** Format: date-time */
                            deleted_at: string;
                        };
                    };
                };
            };
            responses: {
                /** @description Any 2xx status acknowledges the delivery */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "user.invited": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A team invitation is sent
         * @description Sent to each subscription whose `events` include `user.invited`, signed (see the headers). Answer 2xx within 10 s; anything else is retried (1 min, 5 min, 30 min, 2 h).
         */
        post: {
            parameters: {
                query?: never;
                header: {
                    /** @description sha256= + lowercase hex HMAC-SHA256(secret, raw body) */
                    "x-service-signature": string;
                    /** @description Unix seconds when the attempt was sent */
                    "x-service-timestamp": string;
                    /** @description sha256= + hex HMAC-SHA256(secret, "<timestamp>." + body); one per active secret */
                    "x-service-timestamp-signature": string;
                    /** @description The payload's id */
                    "x-service-event-id": string;
                    /** @description The payload's type */
                    "x-service-event-type": string;
                    "x-service-delivery-id": string;
                    "x-service-delivery-attempt": string;
                    /** @description Standard Webhooks: the event id (evt_…) */
                    "webhook-id": string;
                    /** @description Standard Webhooks: Unix seconds */
                    "webhook-timestamp": string;
                    /** @description Standard Webhooks: v1,<base64 HMAC-SHA256>, space-separated during a rotation */
                    "webhook-signature": string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description The same on every attempt: deduplicate on it */
                        id: string;
                        /** @enum {string} */
                        type: "user.invited";
                        /** Format: date-time */
                        created_at: string;
                        /**
                         * @example {
                         *       "invitation_id": "2c3d4e5f-6a7b-4c8d-9e0f-1a2b3c4d5e6f",
                         *       "email": "grace@example.com",
                         *       "role": "member",
                         *       "invited_by": "7c9e2a1b-4d3f-4e5a-8b6c-2d1e3f4a5b7c",
                         *       "expires_at": "2026-11-28T12:00:00.000Z"
                         *     }
                         */
                        data: {
                            /** Format: uuid */
                            invitation_id: string;
                            email: string;
                            /** @enum {string} */
                            role: "owner" | "admin" | "member" | "contributor";
                            /** Format: uuid */
                            invited_by: string;
                            /** Format: date-time */
                            expires_at: string;
                        };
                    };
                };
            };
            responses: {
                /** @description Any 2xx status acknowledges the delivery */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "user.joined": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A user accepts an invitation
         * @description Sent to each subscription whose `events` include `user.joined`, signed (see the headers). Answer 2xx within 10 s; anything else is retried (1 min, 5 min, 30 min, 2 h).
         */
        post: {
            parameters: {
                query?: never;
                header: {
                    /** @description sha256= + lowercase hex HMAC-SHA256(secret, raw body) */
                    "x-service-signature": string;
                    /** @description Unix seconds when the attempt was sent */
                    "x-service-timestamp": string;
                    /** @description sha256= + hex HMAC-SHA256(secret, "<timestamp>." + body); one per active secret */
                    "x-service-timestamp-signature": string;
                    /** @description The payload's id */
                    "x-service-event-id": string;
                    /** @description The payload's type */
                    "x-service-event-type": string;
                    "x-service-delivery-id": string;
                    "x-service-delivery-attempt": string;
                    /** @description Standard Webhooks: the event id (evt_…) */
                    "webhook-id": string;
                    /** @description Standard Webhooks: Unix seconds */
                    "webhook-timestamp": string;
                    /** @description Standard Webhooks: v1,<base64 HMAC-SHA256>, space-separated during a rotation */
                    "webhook-signature": string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description The same on every attempt: deduplicate on it */
                        id: string;
                        /** @enum {string} */
                        type: "user.joined";
                        /** Format: date-time */
                        created_at: string;
                        /**
                         * @example {
                         *       "user_id": "8d9e0f1a-2b3c-4d4e-9f6a-7b8c9d0e1f2a",
                         *       "email": "grace@example.com",
                         *       "role": "member",
                         *       "invitation_id": "2c3d4e5f-6a7b-4c8d-9e0f-1a2b3c4d5e6f"
                         *     }
                         */
                        data: {
                            /** Format: uuid */
                            user_id: string;
                            email: string;
                            /** @enum {string} */
                            role: "owner" | "admin" | "member" | "contributor";
                            /** Format: uuid */
                            invitation_id: string;
                        };
                    };
                };
            };
            responses: {
                /** @description Any 2xx status acknowledges the delivery */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "api_key.created": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * An API key (platform or tool-server) is created; never the key itself
         * @description Sent to each subscription whose `events` include `api_key.created`, signed (see the headers). Answer 2xx within 10 s; anything else is retried (1 min, 5 min, 30 min, 2 h).
         */
        post: {
            parameters: {
                query?: never;
                header: {
                    /** @description sha256= + lowercase hex HMAC-SHA256(secret, raw body) */
                    "x-service-signature": string;
                    /** @description Unix seconds when the attempt was sent */
                    "x-service-timestamp": string;
                    /** @description sha256= + hex HMAC-SHA256(secret, "<timestamp>." + body); one per active secret */
                    "x-service-timestamp-signature": string;
                    /** @description The payload's id */
                    "x-service-event-id": string;
                    /** @description The payload's type */
                    "x-service-event-type": string;
                    "x-service-delivery-id": string;
                    "x-service-delivery-attempt": string;
                    /** @description Standard Webhooks: the event id (evt_…) */
                    "webhook-id": string;
                    /** @description Standard Webhooks: Unix seconds */
                    "webhook-timestamp": string;
                    /** @description Standard Webhooks: v1,<base64 HMAC-SHA256>, space-separated during a rotation */
                    "webhook-signature": string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description The same on every attempt: deduplicate on it */
                        id: string;
                        /** @enum {string} */
                        type: "api_key.created";
                        /** Format: date-time */
                        created_at: string;
                        /**
                         * @example {
                         *       "api_key_id": "3f0c1d52-8a43-4f4e-9a0e-2b6f1c7d9e11",
                         *       "name": "server",
                         *       "kind": "platform",
                         *       "environment": "production",
                         *       "key_prefix": "svc_live_AbCd",
                         *       "scopes": [
                         *         "content:read"
                         *       ]
                         *     }
                         */
                        data: {
                            /** Format: uuid */
                            api_key_id: string;
                            name: string;
                            /** @enum {string} */
                            kind: "platform" | "tool_server";
                            /** @enum {string} */
                            environment: "production" | "sandbox" | "development" | "service";
                            key_prefix: string;
                            scopes: string[];
                            /** @enum {boolean} */
                            published_only?: true;
                        };
                    };
                };
            };
            responses: {
                /** @description Any 2xx status acknowledges the delivery */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "api_key.revoked": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * An API key is revoked
         * @description Sent to each subscription whose `events` include `api_key.revoked`, signed (see the headers). Answer 2xx within 10 s; anything else is retried (1 min, 5 min, 30 min, 2 h).
         */
        post: {
            parameters: {
                query?: never;
                header: {
                    /** @description sha256= + lowercase hex HMAC-SHA256(secret, raw body) */
                    "x-service-signature": string;
                    /** @description Unix seconds when the attempt was sent */
                    "x-service-timestamp": string;
                    /** @description sha256= + hex HMAC-SHA256(secret, "<timestamp>." + body); one per active secret */
                    "x-service-timestamp-signature": string;
                    /** @description The payload's id */
                    "x-service-event-id": string;
                    /** @description The payload's type */
                    "x-service-event-type": string;
                    "x-service-delivery-id": string;
                    "x-service-delivery-attempt": string;
                    /** @description Standard Webhooks: the event id (evt_…) */
                    "webhook-id": string;
                    /** @description Standard Webhooks: Unix seconds */
                    "webhook-timestamp": string;
                    /** @description Standard Webhooks: v1,<base64 HMAC-SHA256>, space-separated during a rotation */
                    "webhook-signature": string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description The same on every attempt: deduplicate on it */
                        id: string;
                        /** @enum {string} */
                        type: "api_key.revoked";
                        /** Format: date-time */
                        created_at: string;
                        /**
                         * @example {
                         *       "api_key_id": "3f0c1d52-8a43-4f4e-9a0e-2b6f1c7d9e11",
                         *       "name": "server",
                         *       "kind": "platform",
                         *       "environment": "production",
                         *       "key_prefix": "svc_live_AbCd",
                         *       "scopes": [
                         *         "content:read"
                         *       ],
                         *       "revoked_at": "2026-11-21T12:00:00.000Z"
                         *     }
                         */
                        data: {
                            /** Format: uuid */
                            api_key_id: string;
                            name: string;
                            /** @enum {string} */
                            kind: "platform" | "tool_server";
                            /** @enum {string} */
                            environment: "production" | "sandbox" | "development" | "service";
                            key_prefix: string;
                            scopes: string[];
                            /** @enum {boolean} */
                            published_only?: true;
                            /** Format: date-time */
                            revoked_at: string;
                        };
                    };
                };
            };
            responses: {
                /** @description Any 2xx status acknowledges the delivery */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "connection.reauthorization_required": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * An integration connection can no longer refresh its access (the provider refused the grant): its tools refuse calls until an owner or admin reconnects it
         * @description Sent to each subscription whose `events` include `connection.reauthorization_required`, signed (see the headers). Answer 2xx within 10 s; anything else is retried (1 min, 5 min, 30 min, 2 h).
         */
        post: {
            parameters: {
                query?: never;
                header: {
                    /** @description sha256= + lowercase hex HMAC-SHA256(secret, raw body) */
                    "x-service-signature": string;
                    /** @description Unix seconds when the attempt was sent */
                    "x-service-timestamp": string;
                    /** @description sha256= + hex HMAC-SHA256(secret, "<timestamp>." + body); one per active secret */
                    "x-service-timestamp-signature": string;
                    /** @description The payload's id */
                    "x-service-event-id": string;
                    /** @description The payload's type */
                    "x-service-event-type": string;
                    "x-service-delivery-id": string;
                    "x-service-delivery-attempt": string;
                    /** @description Standard Webhooks: the event id (evt_…) */
                    "webhook-id": string;
                    /** @description Standard Webhooks: Unix seconds */
                    "webhook-timestamp": string;
                    /** @description Standard Webhooks: v1,<base64 HMAC-SHA256>, space-separated during a rotation */
                    "webhook-signature": string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description The same on every attempt: deduplicate on it */
                        id: string;
                        /** @enum {string} */
                        type: "connection.reauthorization_required";
                        /** Format: date-time */
                        created_at: string;
                        /**
                         * @example {
                         *       "connection_id": "4e5f6a7b-8c9d-4e0f-8a2b-3c4d5e6f7a8b",
                         *       "integration_id": "b1a2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d",
                         *       "integration_slug": "notion",
                         *       "display_name": null,
                         *       "external_account_name": "Acme Workspace",
                         *       "reason": "invalid_grant",
                         *       "reconnect_path": "/api/integrations/notion/authorize"
                         *     }
                         */
                        data: {
                            /** Format: uuid */
                            connection_id: string;
                            /** Format: uuid */
                            integration_id: string;
                            integration_slug: string;
                            display_name: string | null;
                            external_account_name: string | null;
                            /**
                             * @description The provider's answer that ended the access
                             * @enum {string}
                             */
                            reason: "invalid_grant";
                            /** @description Where an owner or admin starts the reconnection */
                            reconnect_path: string;
                        };
                    };
                };
            };
            responses: {
                /** @description Any 2xx status acknowledges the delivery */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "assistant.approval_required": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * An assistant turn waits for an owner's or admin's approval of one or more tool calls
         * @description Sent to each subscription whose `events` include `assistant.approval_required`, signed (see the headers). Answer 2xx within 10 s; anything else is retried (1 min, 5 min, 30 min, 2 h).
         */
        post: {
            parameters: {
                query?: never;
                header: {
                    /** @description sha256= + lowercase hex HMAC-SHA256(secret, raw body) */
                    "x-service-signature": string;
                    /** @description Unix seconds when the attempt was sent */
                    "x-service-timestamp": string;
                    /** @description sha256= + hex HMAC-SHA256(secret, "<timestamp>." + body); one per active secret */
                    "x-service-timestamp-signature": string;
                    /** @description The payload's id */
                    "x-service-event-id": string;
                    /** @description The payload's type */
                    "x-service-event-type": string;
                    "x-service-delivery-id": string;
                    "x-service-delivery-attempt": string;
                    /** @description Standard Webhooks: the event id (evt_…) */
                    "webhook-id": string;
                    /** @description Standard Webhooks: Unix seconds */
                    "webhook-timestamp": string;
                    /** @description Standard Webhooks: v1,<base64 HMAC-SHA256>, space-separated during a rotation */
                    "webhook-signature": string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description The same on every attempt: deduplicate on it */
                        id: string;
                        /** @enum {string} */
                        type: "assistant.approval_required";
                        /** Format: date-time */
                        created_at: string;
                        /**
                         * @example {
                         *       "turn_id": "5f6a7b8c-9d0e-4f1a-8b3c-4d5e6f7a8b9c",
                         *       "conversation_id": "6a7b8c9d-0e1f-4a2b-9c4d-5e6f7a8b9c0d",
                         *       "triggered_by": "assistant",
                         *       "tool_calls": [
                         *         {
                         *           "tool_call_id": "7b8c9d0e-1f2a-4b3c-8d5e-6f7a8b9c0d1e",
                         *           "tool": "slack:post_message"
                         *         }
                         *       ]
                         *     }
                         */
                        data: {
                            /** Format: uuid */
                            turn_id: string;
                            /** Format: uuid */
                            conversation_id: string;
                            /** @enum {string} */
                            triggered_by: "assistant" | "automation";
                            /** @description The calls that wait (their arguments are in the conversation) */
                            tool_calls: {
                                /** Format: uuid */
                                tool_call_id: string;
                                tool: string;
                            }[];
                        };
                    };
                };
            };
            responses: {
                /** @description Any 2xx status acknowledges the delivery */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "job.failed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A background job (scrape, article generation, affiliate sync, assistant turn) failed for good: a permanent error, or its retries are used up
         * @description Sent to each subscription whose `events` include `job.failed`, signed (see the headers). Answer 2xx within 10 s; anything else is retried (1 min, 5 min, 30 min, 2 h).
         */
        post: {
            parameters: {
                query?: never;
                header: {
                    /** @description sha256= + lowercase hex HMAC-SHA256(secret, raw body) */
                    "x-service-signature": string;
                    /** @description Unix seconds when the attempt was sent */
                    "x-service-timestamp": string;
                    /** @description sha256= + hex HMAC-SHA256(secret, "<timestamp>." + body); one per active secret */
                    "x-service-timestamp-signature": string;
                    /** @description The payload's id */
                    "x-service-event-id": string;
                    /** @description The payload's type */
                    "x-service-event-type": string;
                    "x-service-delivery-id": string;
                    "x-service-delivery-attempt": string;
                    /** @description Standard Webhooks: the event id (evt_…) */
                    "webhook-id": string;
                    /** @description Standard Webhooks: Unix seconds */
                    "webhook-timestamp": string;
                    /** @description Standard Webhooks: v1,<base64 HMAC-SHA256>, space-separated during a rotation */
                    "webhook-signature": string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description The same on every attempt: deduplicate on it */
                        id: string;
                        /** @enum {string} */
                        type: "job.failed";
                        /** Format: date-time */
                        created_at: string;
                        /**
                         * @example {
                         *       "job_id": "8c9d0e1f-2a3b-4c4d-9e6f-7a8b9c0d1e2f",
                         *       "kind": "scrape-social.source",
                         *       "attempts": 5,
                         *       "max_attempts": 5,
                         *       "reason": "retries_exhausted",
                         *       "error": "feed.example.com did not answer within 10000 ms (time-out)",
                         *       "failed_at": "2026-11-21T12:00:00.000Z"
                         *     }
                         */
                        data: {
                            /** Format: uuid */
                            job_id: string;
                            /** @example scrape-social.source */
                            kind: string;
                            attempts: number;
                            max_attempts: number;
                            /** @enum {string} */
                            reason: "permanent_error" | "retries_exhausted" | "stalled";
                            error: string | null;
                            /** Format: date-time */
                            failed_at: string;
                        };
                    };
                };
            };
            responses: {
                /** @description Any 2xx status acknowledges the delivery */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "order.created": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A shop's order reaches the platform for the first time (commerce-webhook)
         * @description Sent to each subscription whose `events` include `order.created`, signed (see the headers). Answer 2xx within 10 s; anything else is retried (1 min, 5 min, 30 min, 2 h).
         */
        post: {
            parameters: {
                query?: never;
                header: {
                    /** @description sha256= + lowercase hex HMAC-SHA256(secret, raw body) */
                    "x-service-signature": string;
                    /** @description Unix seconds when the attempt was sent */
                    "x-service-timestamp": string;
                    /** @description sha256= + hex HMAC-SHA256(secret, "<timestamp>." + body); one per active secret */
                    "x-service-timestamp-signature": string;
                    /** @description The payload's id */
                    "x-service-event-id": string;
                    /** @description The payload's type */
                    "x-service-event-type": string;
                    "x-service-delivery-id": string;
                    "x-service-delivery-attempt": string;
                    /** @description Standard Webhooks: the event id (evt_…) */
                    "webhook-id": string;
                    /** @description Standard Webhooks: Unix seconds */
                    "webhook-timestamp": string;
                    /** @description Standard Webhooks: v1,<base64 HMAC-SHA256>, space-separated during a rotation */
                    "webhook-signature": string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description The same on every attempt: deduplicate on it */
                        id: string;
                        /** @enum {string} */
                        type: "order.created";
                        /** Format: date-time */
                        created_at: string;
                        /**
                         * @example {
                         *       "order_id": "9d2b7f0e-5c1a-4b8e-8f3d-6a4e2c1b0a99",
                         *       "store_id": "0b8e6a3c-2d4f-4e1a-9c7b-5f3e1d2a4b6c",
                         *       "platform": "shopify",
                         *       "external_id": "820982911946154508",
                         *       "order_number": "1001",
                         *       "currency": "EUR",
                         *       "total_price": "59.90",
                         *       "financial_status": "paid",
                         *       "fulfillment_status": null,
                         *       "source_updated_at": "2026-11-21T12:00:00.000Z"
                         *     }
                         */
                        data: {
                            /**
                             * Format: uuid
                             * @description The order's id on this platform
                             */
                            order_id: string;
                            /** Format: uuid */
                            store_id: string;
                            /** @enum {string} */
                            platform: "shopify" | "woocommerce";
                            /** @description The shop's own id of the order */
                            external_id: string;
                            order_number: string | null;
                            currency: string;
                            /** @description A decimal number, as the shop wrote it */
                            total_price: string;
                            financial_status: string | null;
                            fulfillment_status: string | null;
                            /**
                             * Format: date-time
                             * @description When the shop last changed the order
                             */
                            source_updated_at: string;
                        };
                    };
                };
            };
            responses: {
                /** @description Any 2xx status acknowledges the delivery */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "order.updated": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A synced order changes at the shop (a newer version arrives)
         * @description Sent to each subscription whose `events` include `order.updated`, signed (see the headers). Answer 2xx within 10 s; anything else is retried (1 min, 5 min, 30 min, 2 h).
         */
        post: {
            parameters: {
                query?: never;
                header: {
                    /** @description sha256= + lowercase hex HMAC-SHA256(secret, raw body) */
                    "x-service-signature": string;
                    /** @description Unix seconds when the attempt was sent */
                    "x-service-timestamp": string;
                    /** @description sha256= + hex HMAC-SHA256(secret, "<timestamp>." + body); one per active secret */
                    "x-service-timestamp-signature": string;
                    /** @description The payload's id */
                    "x-service-event-id": string;
                    /** @description The payload's type */
                    "x-service-event-type": string;
                    "x-service-delivery-id": string;
                    "x-service-delivery-attempt": string;
                    /** @description Standard Webhooks: the event id (evt_…) */
                    "webhook-id": string;
                    /** @description Standard Webhooks: Unix seconds */
                    "webhook-timestamp": string;
                    /** @description Standard Webhooks: v1,<base64 HMAC-SHA256>, space-separated during a rotation */
                    "webhook-signature": string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description The same on every attempt: deduplicate on it */
                        id: string;
                        /** @enum {string} */
                        type: "order.updated";
                        /** Format: date-time */
                        created_at: string;
                        /**
                         * @example {
                         *       "order_id": "9d2b7f0e-5c1a-4b8e-8f3d-6a4e2c1b0a99",
                         *       "store_id": "0b8e6a3c-2d4f-4e1a-9c7b-5f3e1d2a4b6c",
                         *       "platform": "shopify",
                         *       "external_id": "820982911946154508",
                         *       "order_number": "1001",
                         *       "currency": "EUR",
                         *       "total_price": "59.90",
                         *       "financial_status": "paid",
                         *       "fulfillment_status": "fulfilled",
                         *       "source_updated_at": "2026-11-22T09:30:00.000Z"
                         *     }
                         */
                        data: {
                            /**
                             * Format: uuid
                             * @description The order's id on this platform
                             */
                            order_id: string;
                            /** Format: uuid */
                            store_id: string;
                            /** @enum {string} */
                            platform: "shopify" | "woocommerce";
                            /** @description The shop's own id of the order */
                            external_id: string;
                            order_number: string | null;
                            currency: string;
                            /** @description A decimal number, as the shop wrote it */
                            total_price: string;
                            financial_status: string | null;
                            fulfillment_status: string | null;
                            /**
                             * Format: date-time
                             * @description When the shop last changed the order
                             */
                            source_updated_at: string;
                        };
                    };
                };
            };
            responses: {
                /** @description Any 2xx status acknowledges the delivery */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "source.items_added": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A source fetch stored new items (a feed or a social scrape); items it had already seen are no event
         * @description Sent to each subscription whose `events` include `source.items_added`, signed (see the headers). Answer 2xx within 10 s; anything else is retried (1 min, 5 min, 30 min, 2 h).
         */
        post: {
            parameters: {
                query?: never;
                header: {
                    /** @description sha256= + lowercase hex HMAC-SHA256(secret, raw body) */
                    "x-service-signature": string;
                    /** @description Unix seconds when the attempt was sent */
                    "x-service-timestamp": string;
                    /** @description sha256= + hex HMAC-SHA256(secret, "<timestamp>." + body); one per active secret */
                    "x-service-timestamp-signature": string;
                    /** @description The payload's id */
                    "x-service-event-id": string;
                    /** @description The payload's type */
                    "x-service-event-type": string;
                    "x-service-delivery-id": string;
                    "x-service-delivery-attempt": string;
                    /** @description Standard Webhooks: the event id (evt_…) */
                    "webhook-id": string;
                    /** @description Standard Webhooks: Unix seconds */
                    "webhook-timestamp": string;
                    /** @description Standard Webhooks: v1,<base64 HMAC-SHA256>, space-separated during a rotation */
                    "webhook-signature": string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description The same on every attempt: deduplicate on it */
                        id: string;
                        /** @enum {string} */
                        type: "source.items_added";
                        /** Format: date-time */
                        created_at: string;
                        /**
                         * @example {
                         *       "source_id": "6a7b8c9d-0e1f-4a2b-8c3d-4e5f6a7b8c9d",
                         *       "new_items": 2,
                         *       "item_ids": [
                         *         "7b8c9d0e-1f2a-4b3c-9d4e-5f6a7b8c9d0e",
                         *         "8c9d0e1f-2a3b-4c4d-8e5f-6a7b8c9d0e1f"
                         *       ]
                         *     }
                         */
                        data: {
                            /** Format: uuid */
                            source_id: string;
                            new_items: number;
                            /** @description The first 50 new items */
                            item_ids: string[];
                        };
                    };
                };
            };
            responses: {
                /** @description Any 2xx status acknowledges the delivery */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "webhook.test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A test delivery to one subscription, sent on request
         * @description Sent by `POST /api/webhooks/{id}/test` to that subscription only: one attempt, no retries.
         */
        post: {
            parameters: {
                query?: never;
                header: {
                    /** @description sha256= + lowercase hex HMAC-SHA256(secret, raw body) */
                    "x-service-signature": string;
                    /** @description Unix seconds when the attempt was sent */
                    "x-service-timestamp": string;
                    /** @description sha256= + hex HMAC-SHA256(secret, "<timestamp>." + body); one per active secret */
                    "x-service-timestamp-signature": string;
                    /** @description The payload's id */
                    "x-service-event-id": string;
                    /** @description The payload's type */
                    "x-service-event-type": string;
                    "x-service-delivery-id": string;
                    "x-service-delivery-attempt": string;
                    /** @description Standard Webhooks: the event id (evt_…) */
                    "webhook-id": string;
                    /** @description Standard Webhooks: Unix seconds */
                    "webhook-timestamp": string;
                    /** @description Standard Webhooks: v1,<base64 HMAC-SHA256>, space-separated during a rotation */
                    "webhook-signature": string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description The same on every attempt: deduplicate on it */
                        id: string;
                        /** @enum {string} */
                        type: "webhook.test";
                        /** Format: date-time */
                        created_at: string;
                        /**
                         * @example {
                         *       "subscription_id": "9d0e1f2a-3b4c-4d5e-8f7a-8b9c0d1e2f3a",
                         *       "message": "A test event: your endpoint received and can verify this delivery."
                         *     }
                         */
                        data: {
                            /** Format: uuid */
                            subscription_id: string;
                            message: string;
                        };
                    };
                };
            };
            responses: {
                /** @description Any 2xx status acknowledges the delivery */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface components {
    schemas: {
        CreatedApiKey: components["schemas"]["ApiKey"] & {
            /** @description The full secret. Shown only in this response. */
            key: string;
        };
        /**
         * @description Limits the key to these connections (all their tools) and tools; absent or null: every tool
         * @example {
         *       "connections": [],
         *       "tools": [
         *         "platform:list_content",
         *         "slack:post_message"
         *       ]
         *     }
         */
        ToolSubset: {
            /** @default [] */
            connections?: string[];
            /** @default [] */
            tools?: string[];
        } | null;
        ApiKey: {
            /** Format: uuid */
            id: string;
            name: string;
            /** @enum {string} */
            kind: "platform" | "tool_server";
            environment: string;
            /** @example svc_live_Ab3x */
            key_prefix: string;
            scopes: string[];
            rate_limit_per_minute: number;
            expires_at: string | null;
            last_used_at: string | null;
            revoked_at: string | null;
            created_at: string;
            published_only: boolean;
            allowed_origins: string[];
            tool_subset: components["schemas"]["ToolSubset"];
        };
        Error: {
            /** @example Unauthorized */
            error: string;
            /** @example AUTH_REQUIRED */
            code: string;
            message: string;
            retryAfter?: number;
            details?: {
                field: string;
                message: string;
            }[];
        };
        /**
         * @example {
         *       "name": "Production server",
         *       "kind": "platform",
         *       "environment": "production",
         *       "scopes": [
         *         "content:read"
         *       ],
         *       "rate_limit_per_minute": 60
         *     }
         */
        CreateApiKey: {
            /** @example Production server */
            name: string;
            /**
             * @description platform keys: production (svc_live_) or sandbox (svc_test_); tool-server keys: production (mcp_live_), development (mcp_dev_) or service (srv_)
             * @enum {string}
             */
            environment: "production" | "sandbox" | "development" | "service";
            scopes: ("content:read" | "content:write" | "assistant:invoke" | "analytics:read" | "users:read" | "users:write" | "billing:read")[];
            /**
             * @description Requests per minute for this key: 1–1000 for platform keys, 1–100 for tool-server keys (a tool-server key over 100 is refused with 400)
             * @example 120
             */
            rate_limit_per_minute: number;
            /**
             * Format: date-time
             * @description Must lie in the future
             */
            expires_at?: string;
            /**
             * @description platform (Bearer at /v1) or tool_server (X-API-Key at the tool server)
             * @default platform
             * @enum {string}
             */
            kind?: "platform" | "tool_server";
            /**
             * @description A published-only key: reads published articles, their sites and tags, and nothing more (drafts, scheduled articles and revisions are 404 to it). Safe to ship in a browser or a static site build. A platform key with the scopes ["content:read"] and nothing else.
             * @default false
             */
            published_only?: boolean;
            /**
             * @description Published-only keys: browser origins answered with CORS (scheme, host and port, such as https://blog.example.com)
             * @default []
             * @example [
             *       "https://blog.example.com"
             *     ]
             */
            allowed_origins?: string[];
            /**
             * @description Tool-server keys only: limits the key to these connections and tools (docs/mcp.md); absent or null: every tool
             * @example {
             *       "connections": [],
             *       "tools": [
             *         "platform:list_content",
             *         "slack:post_message"
             *       ]
             *     }
             */
            tool_subset?: {
                /** @default [] */
                connections?: string[];
                /** @default [] */
                tools?: string[];
            } | null;
        };
        RequestLogEntry: {
            /**
             * @description The row (a number, as a string)
             * @example 1042
             */
            id: string;
            /**
             * Format: date-time
             * @description When the request arrived (for a count of refusals: the first of them, or the end of its minute)
             */
            at: string;
            /** @description The X-Request-Id the request was answered with */
            request_id: string;
            method: string;
            /** @description The public path, without the query string */
            path: string;
            status: number;
            /**
             * Format: uuid
             * @description The key that made it; null: a signed-in member
             */
            key_id: string | null;
            key_name: string | null;
            /**
             * Format: uuid
             * @description The acting user: the member, or the key's creator
             */
            user_id: string | null;
            latency_ms: number;
            /**
             * @description allowed, or limited (answered 429 RATE_LIMITED); null when no rate limit was taken
             * @enum {string|null}
             */
            rate_limit: "allowed" | "limited" | null;
            /** @description X-RateLimit-Remaining after it */
            rate_remaining: number | null;
            /**
             * @description counted (metered against the monthly quota), exceeded (429 QUOTA_EXCEEDED), or null (not metered)
             * @enum {string|null}
             */
            quota: "counted" | "exceeded" | null;
            /** @description How many requests the row stands for: 1, or more for refusals over the rate limit, counted per key and minute */
            requests: number;
        };
        KeyRequests: {
            /** @description The latest requests, newest first */
            recent: components["schemas"]["RequestLogEntry"][];
            /** @description The last 24 hours, oldest first, the current hour last */
            hours: {
                /**
                 * Format: date-time
                 * @description Start of the hour (UTC)
                 */
                hour: string;
                requests: number;
                /** @description Answered 400 or above */
                errors: number;
                rate_limited: number;
                quota_exceeded: number;
            }[];
        };
        ContentItem: {
            /** @enum {string} */
            object: "site" | "article";
            /** Format: uuid */
            id: string;
            created_at: string;
            updated_at: string;
            /** @description sites */
            name?: string;
            /** @description sites */
            domain?: string | null;
            /**
             * Format: uuid
             * @description articles
             */
            site_id?: string | null;
            /** @description articles */
            title?: string;
            /** @description sites and articles */
            slug?: string;
            /** @description articles: draft, scheduled or published */
            status?: string | null;
            /** @description articles */
            published_at?: string | null;
            /** @description articles: when the draft was submitted for review (POST /v1/content/articles/{id}/submit); null when it waits for none (publishing or scheduling clears it) */
            review_requested_at?: string | null;
        };
        Article: {
            /** @enum {string} */
            object: "article";
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            site_id: string;
            slug: string;
            title: string;
            /** @description Markdown (formats=markdown, the default) */
            body?: string;
            /** @description Sanitized HTML (formats=html) */
            html?: string;
            /** @description Text without markup (formats=plaintext) */
            plaintext?: string;
            /** @description Given, or the body's first paragraph as text (at most 300 characters) */
            excerpt: string;
            /** @description The excerpt as given; null when derived */
            custom_excerpt: string | null;
            feature_image: {
                url: string;
                alt: string;
            } | null;
            tags: {
                /** Format: uuid */
                id: string;
                name: string;
                slug: string;
            }[];
            author: {
                /** Format: uuid */
                id: string;
                name: string;
            } | null;
            meta_title: string | null;
            meta_description: string | null;
            canonical_url: string | null;
            /** @enum {string} */
            status: "draft" | "scheduled" | "published";
            /** @description When a scheduled article goes live */
            publish_at: string | null;
            /** @description When the article goes back to draft (the publish-scheduled job); absent from the read by slug */
            unpublish_at?: string | null;
            published_at: string | null;
            /**
             * Format: uuid
             * @description The revision the article is at (every save makes one)
             */
            revision_id: string | null;
            /**
             * Format: uuid
             * @description The revision that went live when the article was last published
             */
            published_revision_id: string | null;
            /** @description Published, and saved since it was: the current revision is not the one that went live */
            edited_since_published: boolean;
            /** @description When the draft was submitted for review (POST /v1/content/articles/{id}/submit); cleared when it is published or scheduled */
            review_requested_at: string | null;
            created_at: string;
            updated_at: string;
        };
        Site: {
            /** @enum {string} */
            object: "site";
            /** Format: uuid */
            id: string;
            slug: string;
            name: string;
            domain: string | null;
            public_feeds: boolean;
            article_url_pattern: string | null;
            /** @enum {string} */
            article_schema_type: "Article" | "NewsArticle" | "BlogPosting";
            created_at: string;
            updated_at: string;
        };
        /**
         * @example {
         *       "name": "Deals blog",
         *       "domain": "deals.example.com"
         *     }
         */
        CreateSite: {
            /** @example Tech blog */
            name: string;
            /**
             * @description Unique in the tenant; made from the name when absent
             * @example tech-blog
             */
            slug?: string;
            /** @example blog.example.com */
            domain?: string | null;
            /** @description Serve the RSS, Atom and JSON feeds and the sitemap without a key at /feeds/{site_id}/... (off by default): they show what a published-only key reads. Needs article_url_pattern or domain */
            public_feeds?: boolean;
            /**
             * @description Where the site's articles live: https, with {slug}; null means https://{domain}/{slug}. Used for the links of feeds, the sitemap and structured data
             * @example https://blog.example.com/{slug}
             */
            article_url_pattern?: string | null;
            /**
             * @description The schema.org type of its articles’ structured data (Article by default)
             * @enum {string}
             */
            article_schema_type?: "Article" | "NewsArticle" | "BlogPosting";
        };
        /**
         * @example {
         *       "object": "site",
         *       "id": "7d4a5a0e-2f0c-4a43-9d49-6c1b8e0b7a11",
         *       "slug": "tech-blog",
         *       "name": "Tech blog",
         *       "domain": "blog.example.com",
         *       "public_feeds": false,
         *       "article_url_pattern": null,
         *       "article_schema_type": "Article",
         *       "created_at": "2026-11-01T09:00:00.000Z",
         *       "updated_at": "2026-11-01T09:00:00.000Z",
         *       "counts": {
         *         "articles": 12,
         *         "drafts": 3,
         *         "scheduled": 0,
         *         "published": 9,
         *         "sources": 2,
         *         "source_items": 140,
         *         "affiliate_destinations": 1
         *       }
         *     }
         */
        SiteDetail: components["schemas"]["Site"] & {
            /** @description Absent for a published-only key */
            counts?: {
                articles: number;
                drafts: number;
                scheduled: number;
                published: number;
                /** @description scrape-social sources feeding the site */
                sources: number;
                /** @description items those sources collected */
                source_items: number;
                affiliate_destinations: number;
            };
        };
        UpdateSite: {
            /** @example Engineering blog */
            name?: string;
            slug?: string;
            /** @example blog.example.com */
            domain?: string | null;
            /** @description Serve the RSS, Atom and JSON feeds and the sitemap without a key at /feeds/{site_id}/... (off by default): they show what a published-only key reads. Needs article_url_pattern or domain */
            public_feeds?: boolean;
            /**
             * @description Where the site's articles live: https, with {slug}; null means https://{domain}/{slug}. Used for the links of feeds, the sitemap and structured data
             * @example https://blog.example.com/{slug}
             */
            article_url_pattern?: string | null;
            /**
             * @description The schema.org type of its articles’ structured data (Article by default)
             * @enum {string}
             */
            article_schema_type?: "Article" | "NewsArticle" | "BlogPosting";
        };
        /**
         * @example {
         *       "site_id": "5b1d7c3e-9f2a-4e6b-8d1c-3a4b5c6d7e8f",
         *       "title": "Spring deals",
         *       "body": "Ten finds for the **garden**.",
         *       "tags": [
         *         "garden"
         *       ],
         *       "feature_image": {
         *         "url": "https://images.example.com/spring.jpg",
         *         "alt": "A garden in spring"
         *       }
         *     }
         */
        CreateArticle: {
            /** Format: uuid */
            site_id: string;
            /** @example Ten things about edge functions */
            title: string;
            /**
             * @description Markdown
             * @default
             */
            body?: string;
            /**
             * @description Unique in the site; made from the title when absent. A published article keeps answering at its old slugs.
             * @example spring-deals
             */
            slug?: string;
            /** @description At most 500 characters; null derives it from the body's first paragraph */
            excerpt?: string | null;
            /** @description https only */
            feature_image?: {
                /** @example https://images.example.com/spring.jpg */
                url: string;
                /**
                 * @default
                 * @example A garden in spring
                 */
                alt?: string;
            } | null;
            /**
             * @description Slugs of the tenant's tags (POST /v1/content/tags), at most 20; the first is the primary tag
             * @example [
             *       "garden"
             *     ]
             */
            tags?: string[];
            /**
             * Format: uuid
             * @description A member of the tenant; the creating user by default
             */
            author_id?: string | null;
            meta_title?: string | null;
            meta_description?: string | null;
            /** @example https://blog.example.com/spring-deals */
            canonical_url?: string | null;
        };
        /**
         * @example {
         *       "title": "Spring deals, updated",
         *       "body": "The revised text."
         *     }
         */
        UpdateArticle: {
            title?: string;
            body?: string;
            /**
             * @description Unique in the site; made from the title when absent. A published article keeps answering at its old slugs.
             * @example spring-deals
             */
            slug?: string;
            /** @description At most 500 characters; null derives it from the body's first paragraph */
            excerpt?: string | null;
            /** @description https only */
            feature_image?: {
                /** @example https://images.example.com/spring.jpg */
                url: string;
                /**
                 * @default
                 * @example A garden in spring
                 */
                alt?: string;
            } | null;
            /**
             * @description Slugs of the tenant's tags (POST /v1/content/tags), at most 20; the first is the primary tag
             * @example [
             *       "garden"
             *     ]
             */
            tags?: string[];
            /**
             * Format: uuid
             * @description A member of the tenant; the creating user by default
             */
            author_id?: string | null;
            meta_title?: string | null;
            meta_description?: string | null;
            /** @example https://blog.example.com/spring-deals */
            canonical_url?: string | null;
            /**
             * Format: date-time
             * @description When the publish-scheduled job takes the published article back to draft (content.unpublished): in the future, and after publish_at when scheduled; null clears it. Editors only
             * @example 2027-01-31T23:00:00Z
             */
            unpublish_at?: string | null;
        };
        /**
         * @example {
         *       "data": [
         *         {
         *           "id": "0b8e7c3e-5d0a-4a8e-9f61-2f0f3c1d9a20",
         *           "source_id": "5a1f0c2e-8b7d-4c3a-a1e9-7d2b6c4f8e10",
         *           "source_name": "Company blog",
         *           "url": "https://example.com/posts/launch",
         *           "title": "We launched",
         *           "author": "Ada",
         *           "published_at": "2026-11-20T08:00:00.000Z"
         *         }
         *       ]
         *     }
         */
        ArticleSources: {
            data: components["schemas"]["ArticleSource"][];
        };
        ArticleSource: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            source_id: string;
            source_name: string;
            url: string | null;
            title: string | null;
            author: string | null;
            published_at: string | null;
        };
        ArticleBySlug: components["schemas"]["Article"] & {
            seo?: components["schemas"]["ArticleSeo"];
        };
        /** @description With include=seo */
        ArticleSeo: {
            /** @description The article's canonical_url, or its address by the site's article_url_pattern (or domain) */
            canonical_url: string | null;
            /** @description <link rel="alternate"> entries: the article on the site, the site’s public feeds */
            alternates: {
                href: string;
                type: string;
                title?: string;
            }[];
            /** @description A schema.org Article (or the site’s article_schema_type) for <script type="application/ld+json"> */
            json_ld: {
                [key: string]: unknown;
            };
        };
        ArticleMoved: {
            /** @description The slug the article has now */
            redirect_to: string;
            /** Format: uuid */
            article_id: string;
        };
        /**
         * @example {
         *       "publish_at": "2026-12-24T08:00:00Z"
         *     }
         */
        ScheduleArticle: {
            /**
             * Format: date-time
             * @description When to publish: must lie in the future (a time in the past is refused)
             * @example 2026-12-24T08:00:00Z
             */
            publish_at: string;
            /**
             * Format: date-time
             * @description When to take it back to draft (optional): after publish_at. Without it, an unpublish_at the article has is kept
             * @example 2027-01-31T23:00:00Z
             */
            unpublish_at?: string;
        };
        ArticleRevisionList: {
            data: components["schemas"]["ArticleRevisionSummary"][];
            next_cursor: string | null;
        };
        ArticleRevisionSummary: {
            /** @enum {string} */
            object: "article_revision";
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            article_id: string;
            /** @description 1 for the first save, then one more per save */
            number: number;
            title: string;
            /** @enum {string} */
            reason: "created" | "updated" | "restored";
            /**
             * Format: uuid
             * @description The user who saved (a key saves as its creator)
             */
            created_by: string | null;
            created_at: string;
        };
        ArticleRevision: components["schemas"]["ArticleRevisionSummary"] & {
            body: string;
            slug: string;
            excerpt: string | null;
            feature_image: {
                url: string;
                alt: string;
            } | null;
            /** @description Tag slugs */
            tags: string[];
            /** Format: uuid */
            author_id: string | null;
            meta_title: string | null;
            meta_description: string | null;
            canonical_url: string | null;
        };
        TagList: {
            data: components["schemas"]["Tag"][];
            next_cursor: string | null;
        };
        /**
         * @example {
         *       "object": "tag",
         *       "id": "3c0c1f1e-6a51-4d8e-9a2b-1f0e9d8c7b6a",
         *       "name": "Garden",
         *       "slug": "garden",
         *       "created_at": "2026-11-01T09:00:00.000Z",
         *       "updated_at": "2026-11-01T09:00:00.000Z"
         *     }
         */
        Tag: {
            /** @enum {string} */
            object: "tag";
            /** Format: uuid */
            id: string;
            name: string;
            slug: string;
            created_at: string;
            updated_at: string;
        };
        /**
         * @example {
         *       "name": "Garden"
         *     }
         */
        CreateTag: {
            /** @example Garden */
            name: string;
            /** @description Unique in the tenant; made from the name when absent */
            slug?: string;
        };
        /**
         * @example {
         *       "name": "Gardening",
         *       "slug": "gardening"
         *     }
         */
        UpdateTag: {
            /** @example Garden */
            name?: string;
            slug?: string;
        };
        CreatedPreviewLink: components["schemas"]["PreviewLink"] & {
            /** @description The link’s token (prv_…): shown once, stored only as a hash */
            token: string;
            /** @description GET it without a key: the article as the link shows it */
            url: string;
        };
        PreviewLink: {
            /** @enum {string} */
            object: "preview_link";
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            article_id: string;
            /** @description The first characters of the token, for display */
            token_prefix: string;
            /** @enum {string} */
            status: "active" | "expired" | "revoked";
            /** Format: uuid */
            created_by: string | null;
            created_at: string;
            expires_at: string;
            revoked_at: string | null;
        };
        /**
         * @example {
         *       "expires_in_days": 7
         *     }
         */
        CreatePreviewLink: {
            /** @description Days the link works (default 7, at most 30) */
            expires_in_days?: number;
        };
        ArticlePreview: components["schemas"]["Article"] & {
            /** @description When the link stops working */
            preview: {
                expires_at: string;
            };
        };
        /**
         * @example {
         *       "object": "media",
         *       "id": "6f1c2b9e-1d2a-4b3c-9e8f-7a6b5c4d3e2f",
         *       "reference": "media:6f1c2b9e-1d2a-4b3c-9e8f-7a6b5c4d3e2f",
         *       "file_name": "garden.jpg",
         *       "alt_text": "A garden in spring",
         *       "caption": "",
         *       "width": 1600,
         *       "height": 1067,
         *       "bytes": 245812,
         *       "content_type": "image/jpeg",
         *       "uploaded_by": "0b7c1e2d-3f4a-4b5c-8d9e-0f1a2b3c4d5e",
         *       "url": "https://<ref>.supabase.co/storage/v1/object/sign/media/...?token=...",
         *       "url_expires_at": "2026-12-08T13:00:00.000Z",
         *       "created_at": "2026-12-08T12:00:00.000Z",
         *       "updated_at": "2026-12-08T12:00:00.000Z"
         *     }
         */
        Media: {
            /** @enum {string} */
            object: "media";
            /** Format: uuid */
            id: string;
            /** @description How an article names this image: `![alt](media:<id>)` in the body, or the feature image url */
            reference: string;
            file_name: string;
            alt_text: string;
            caption: string;
            width: number | null;
            height: number | null;
            bytes: number;
            /** @enum {string} */
            content_type: "image/jpeg" | "image/png" | "image/webp" | "image/gif" | "image/avif" | "image/svg+xml";
            /** Format: uuid */
            uploaded_by: string | null;
            /** @description A signed URL of the original that expires (url_expires_at) */
            url: string;
            url_expires_at: string;
            created_at: string;
            updated_at: string;
        };
        MediaList: {
            data: components["schemas"]["Media"][];
            next_cursor: string | null;
        };
        MediaUsage: {
            /** @enum {string} */
            object: "media_usage";
            plan: string;
            items: number;
            used_bytes: number;
            quota_bytes: number;
            max_file_bytes: number;
            percent: number;
        };
        Tenant: {
            /** Format: uuid */
            id: string;
            name: string;
            /** @enum {string} */
            plan: "free" | "pro" | "business" | "enterprise";
            settings: {
                [key: string]: unknown;
            };
            /**
             * @description The caller's role in the tenant
             * @enum {string}
             */
            role: "owner" | "admin" | "member" | "contributor";
            /** @description Whether it is the tenant in the access token */
            active?: boolean;
            created_at: string;
            updated_at: string;
        };
        /**
         * @example {
         *       "name": "Acme Publishing"
         *     }
         */
        CreateTenant: {
            /** @example Acme Media */
            name: string;
            /**
             * @description New tenants start on Free: any other plan is refused (403); plans change through billing
             * @default free
             * @enum {string}
             */
            plan?: "free" | "pro" | "business" | "enterprise";
        };
        ActiveTenant: {
            /** Format: uuid */
            tenant_id: string;
            /** @enum {string} */
            role: "owner" | "admin" | "member" | "contributor";
            /**
             * @description The next access token carries the tenant: refresh the session (supabase.auth.refreshSession())
             * @enum {boolean}
             */
            refresh_session: true;
        };
        /**
         * @example {
         *       "tenant_id": "8c5a3e1f-2b4d-4f6a-9e7c-1a2b3c4d5e6f"
         *     }
         */
        SwitchTenant: {
            /** Format: uuid */
            tenant_id: string;
        };
        /**
         * @example {
         *       "name": "Acme Media",
         *       "settings": {
         *         "timezone": "Europe/Berlin"
         *       }
         *     }
         */
        UpdateTenant: {
            /** @example Acme Media */
            name?: string;
            /**
             * @description Refused (403) for every user: plans change only through billing (POST /functions/v1/tenants/admin/tenants/{id}/plan, service role)
             * @enum {string}
             */
            plan?: "free" | "pro" | "business" | "enterprise";
            /** @description Free-form tenant settings (JSON object, at most 8192 bytes) */
            settings?: {
                [key: string]: unknown;
            };
        };
        Member: {
            /** Format: uuid */
            user_id: string;
            email: string | null;
            /** @enum {string} */
            role: "owner" | "admin" | "member" | "contributor";
            joined_at: string;
        };
        /**
         * @example {
         *       "role": "admin"
         *     }
         */
        UpdateMember: {
            /** @enum {string} */
            role: "owner" | "admin" | "member" | "contributor";
        };
        Invitation: {
            /** Format: uuid */
            id: string;
            email: string;
            /** @enum {string} */
            role: "owner" | "admin" | "member" | "contributor";
            /** @enum {string} */
            status: "pending" | "accepted" | "expired" | "revoked";
            /** Format: uuid */
            invited_by: string | null;
            expires_at: string;
            accepted_at: string | null;
            created_at: string;
        };
        /**
         * @example {
         *       "email": "colleague@example.com",
         *       "role": "member"
         *     }
         */
        CreateInvitation: {
            /**
             * Format: email
             * @example editor@example.com
             */
            email: string;
            /**
             * @description Only owners invite owners
             * @default member
             * @enum {string}
             */
            role?: "owner" | "admin" | "member" | "contributor";
        };
        AcceptedInvitation: {
            /** Format: uuid */
            tenant_id: string;
            /** @enum {string} */
            role: "owner" | "admin" | "member" | "contributor";
            /**
             * @description Refresh the session to get a token for the tenant
             * @enum {boolean}
             */
            refresh_session: true;
        };
        /**
         * @example {
         *       "token": "inv_the-token-from-the-invitation-e-mail"
         *     }
         */
        AcceptInvitation: {
            token: string;
        };
        InvitationPreview: {
            tenant_name: string;
            email: string;
            /** @enum {string} */
            role: "owner" | "admin" | "member" | "contributor";
            expires_at: string;
            status: string;
        };
        Job: {
            /** Format: uuid */
            id: string;
            /** @example scrape-social.source */
            kind: string;
            /** @enum {string} */
            status: "queued" | "running" | "succeeded" | "failed";
            input: {
                [key: string]: unknown;
            };
            attempts: number;
            max_attempts: number;
            /** @description Not run before this time (the next retry, when queued again) */
            run_after: string;
            /** @description What the job produced, once succeeded */
            result?: unknown;
            /** @description Why the job failed, or why the last attempt failed while it is retried */
            error: string | null;
            /**
             * Format: uuid
             * @description The user who asked for it; null for scheduled runs
             */
            created_by: string | null;
            created_at: string;
            updated_at: string;
            started_at: string | null;
            finished_at: string | null;
        };
        PlanChange: {
            /** Format: uuid */
            id: string;
            name: string;
            /** @enum {string} */
            plan: "free" | "pro" | "business" | "enterprise";
            /** @enum {string} */
            previous_plan: "free" | "pro" | "business" | "enterprise";
            updated_at: string;
        };
        /**
         * @example {
         *       "plan": "pro"
         *     }
         */
        ChangePlan: {
            /** @enum {string} */
            plan: "free" | "pro" | "business" | "enterprise";
        };
        JsonRpcMessage: {
            /** @enum {string} */
            jsonrpc: "2.0";
        } & {
            [key: string]: unknown;
        };
        Tool: {
            /** @example slack:post_message */
            name: string;
            /**
             * @description The MCP name
             * @example slack__post_message
             */
            alias: string;
            description: string;
            inputSchema: {
                [key: string]: unknown;
            };
            /** Format: uuid */
            connection_id: string | null;
        };
        ProtectedResourceMetadata: {
            /**
             * Format: uri
             * @example http://127.0.0.1:54321/mcp
             */
            resource: string;
            /**
             * @example [
             *       "http://127.0.0.1:54321/mcp"
             *     ]
             */
            authorization_servers: string[];
            /**
             * @example [
             *       "content:read",
             *       "content:write"
             *     ]
             */
            scopes_supported: string[];
            /**
             * @example [
             *       "header"
             *     ]
             */
            bearer_methods_supported: string[];
            resource_name: string;
            /** Format: uri */
            resource_documentation?: string;
        };
        AuthorizationServerMetadata: {
            /**
             * Format: uri
             * @example http://127.0.0.1:54321/mcp
             */
            issuer: string;
            /** Format: uri */
            authorization_endpoint: string;
            /** Format: uri */
            token_endpoint: string;
            /** Format: uri */
            registration_endpoint: string;
            /** Format: uri */
            revocation_endpoint: string;
            response_types_supported: string[];
            grant_types_supported: string[];
            code_challenge_methods_supported: string[];
            token_endpoint_auth_methods_supported: string[];
            revocation_endpoint_auth_methods_supported: string[];
            scopes_supported: string[];
            /** @description A client_id may be the https URL of the client’s metadata document */
            client_id_metadata_document_supported: boolean;
        };
        OAuthClientRegistration: {
            /** @example mcpc_3hT9... */
            client_id: string;
            client_id_issued_at: number;
            client_name: string;
            redirect_uris: string[];
            grant_types: string[];
            response_types: string[];
            /** @enum {string} */
            token_endpoint_auth_method: "none";
        };
        OAuthError: {
            /** @example invalid_grant */
            error: string;
            error_description: string;
        };
        OAuthTokens: {
            /** @example mcpat_... */
            access_token: string;
            /** @enum {string} */
            token_type: "Bearer";
            /** @example 3600 */
            expires_in: number;
            /** @example mcprt_... */
            refresh_token: string;
            /** @example content:read content:write */
            scope: string;
        };
        McpAuthorizationRequest: {
            /** Format: uuid */
            id: string;
            client_id: string;
            /** @example Claude */
            client_name: string;
            redirect_uri: string;
            /**
             * @example [
             *       "content:read",
             *       "content:write"
             *     ]
             */
            scopes: string[];
            resource: string;
            tenant: {
                /** Format: uuid */
                id: string;
                name: string;
            };
        };
        ConnectedMcpClient: {
            /** Format: uuid */
            id: string;
            client_id: string;
            /** @example Claude */
            client_name: string;
            /** Format: uuid */
            user_id: string;
            scopes: string[];
            tool_subset: components["schemas"]["ToolSubset"];
            created_at: string;
            last_used_at: string | null;
            revoked_at: string | null;
        };
        Provider: {
            /** Format: uuid */
            id: string;
            /** @example openai */
            slug: string;
            /** @example OpenAI */
            name: string;
            /** @enum {string} */
            category: "AI" | "Payments" | "Email" | "Communications" | "Storage" | "Database" | "Infrastructure" | "Development" | "Productivity" | "Analytics" | "Monitoring" | "Ecommerce" | "Affiliate" | "Scraping";
            /** @example https://openai.com/favicon.ico */
            icon_url: string;
        };
        Credential: {
            /** Format: uuid */
            id: string;
            name: string;
            /** @enum {string} */
            environment: "development" | "staging" | "production";
            /**
             * @description '...' and the last 6 characters
             * @example ...a1B2c3
             */
            key_hint: string;
            /** Format: uuid */
            provider_id: string;
            provider: components["schemas"]["Provider"];
            scopes: string[];
            /** @description An OpenAI-compatible credential's own API base URL; null: the platform's */
            base_url: string | null;
            expires_at: string | null;
            /**
             * @description expiring: expires within 7 days; expired: expires_at has passed
             * @enum {string}
             */
            status: "active" | "expiring" | "expired";
            last_used_at: string | null;
            rotated_at: string | null;
            created_at: string;
            updated_at: string;
        };
        /**
         * @example {
         *       "provider_id": "8c5a3e1f-2b4d-4f6a-9e7c-1a2b3c4d5e6f",
         *       "name": "OpenAI production",
         *       "environment": "production",
         *       "credential": "sk-the-provider-secret",
         *       "expires_at": "2027-06-30T00:00:00Z"
         *     }
         */
        CreateCredential: {
            /**
             * Format: uuid
             * @description A provider from GET /api/providers
             */
            provider_id: string;
            /** @example Production OpenAI key */
            name: string;
            /** @enum {string} */
            environment: "development" | "staging" | "production";
            /**
             * @description The secret. Encrypted at once; never returned, only its key_hint.
             * @example sk-live-...
             */
            credential: string;
            /**
             * @description Free labels for the use of the credential
             * @default []
             * @example [
             *       "inference"
             *     ]
             */
            scopes?: string[];
            /**
             * Format: date-time
             * @description Must lie in the future
             */
            expires_at?: string;
            /**
             * Format: uri
             * @description OpenAI-compatible credentials only: the API base URL the assistant's model calls go to instead of the platform's (e.g. https://openrouter.ai/api/v1). Checked against the outbound address policy: no loopback or private addresses, https only, unless the deployment allows them.
             * @example https://openrouter.ai/api/v1
             */
            base_url?: string;
        };
        /**
         * @example {
         *       "name": "OpenAI (main)",
         *       "expires_at": null
         *     }
         */
        UpdateCredential: {
            /** @example Production OpenAI key */
            name?: string;
            /**
             * @description Free labels for the use of the credential
             * @example [
             *       "inference"
             *     ]
             */
            scopes?: string[];
            /**
             * Format: date-time
             * @description null removes the expiry
             */
            expires_at?: string | null;
            /**
             * Format: uri
             * @description null: the platform's base URL again
             * @example https://openrouter.ai/api/v1
             */
            base_url?: string | null;
        };
        /**
         * @example {
         *       "credential": "sk-the-new-provider-secret",
         *       "expires_at": "2027-12-31T00:00:00Z"
         *     }
         */
        RotateCredential: {
            /**
             * @description The secret. Encrypted at once; never returned, only its key_hint.
             * @example sk-live-...
             */
            credential: string;
            /**
             * Format: date-time
             * @description The new secret’s expiry; null removes it
             */
            expires_at?: string | null;
        };
        CredentialUsage: {
            /** Format: uuid */
            id: string;
            /** @enum {string} */
            caller_kind: "assistant" | "automation" | "server_function";
            function_name: string;
            used_at: string;
        };
        Usage: {
            /** @example 2026-11 */
            period: string;
            /** @enum {string} */
            plan: "free" | "pro" | "business" | "enterprise";
            /** @enum {string} */
            currency: "USD";
            products: components["schemas"]["ProductUsage"][];
            /**
             * @description USD, exact decimal
             * @example 1.25
             */
            total_overage_cost: string;
        };
        ProductUsage: {
            /** Format: uuid */
            product_id: string;
            /** @example content */
            product: string;
            /** @example Content API */
            name: string;
            /** @enum {string} */
            unit: "request" | "token";
            used: number;
            /** @description null: unlimited */
            quota: number | null;
            /** @description used / quota in percent, 2 decimals; null when unlimited */
            percent: number | null;
            /** @description Billed units over quota (paid plans only) */
            overage_units: number;
            /**
             * @description USD per unit over quota, exact decimal
             * @example 0.05
             */
            overage_rate: string;
            /**
             * @description USD, exact decimal
             * @example 1.25
             */
            overage_cost: string;
        };
        DailyUsage: {
            /** @example 2026-11 */
            period: string;
            /** @enum {string} */
            plan: "free" | "pro" | "business" | "enterprise";
            /** @description Every day of the month (UTC), YYYY-MM-DD */
            days: string[];
            products: {
                /** Format: uuid */
                product_id: string;
                /** @example content */
                product: string;
                /** @example Content API */
                name: string;
                /** @enum {string} */
                unit: "request" | "token";
                /** @description Monthly quota; null: unlimited */
                quota: number | null;
                /**
                 * @description Units used on each day of `days`, in the same order
                 * @example [
                 *       3,
                 *       0,
                 *       12
                 *     ]
                 */
                daily: number[];
            }[];
        };
        UsageAlert: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            product_id: string;
            product: string;
            threshold_percent: number;
            /** @enum {string} */
            notification_type: "email";
            notification_target: string;
            created_at: string;
        };
        /**
         * @example {
         *       "product_id": "8c5a3e1f-2b4d-4f6a-9e7c-1a2b3c4d5e6f",
         *       "threshold_percent": 80,
         *       "notification_type": "email",
         *       "notification_target": "ops@example.com"
         *     }
         */
        CreateUsageAlert: {
            /**
             * Format: uuid
             * @description A product id from GET /api/usage
             */
            product_id: string;
            /** @example 75 */
            threshold_percent: number;
            /**
             * @description 'email' (the one supported type)
             * @enum {string}
             */
            notification_type: "email";
            /**
             * Format: email
             * @example ops@example.com
             */
            notification_target: string;
        };
        Analytics: {
            from: string;
            to: string;
            usage: {
                /** @description Month (YYYY-MM); usage is counted per calendar month */
                period: string;
                /** Format: uuid */
                product_id: string;
                product: string;
                units: number;
            }[];
            events: {
                type: string;
                count: number;
            }[];
            total_events: number;
        };
        CreatedWebhook: components["schemas"]["Webhook"] & {
            /**
             * @description The signing secret (also readable later by owners and admins)
             * @example whsec_...
             */
            secret: string;
        };
        Webhook: {
            /** Format: uuid */
            id: string;
            url: string;
            events: string[];
            description: string | null;
            /** @enum {string} */
            status: "active" | "paused";
            paused_at: string | null;
            /** @enum {string|null} */
            paused_reason: "failures" | "manual" | null;
            /** @description End of the rotation overlap, if one is running */
            previous_secret_expires_at: string | null;
            created_at: string;
            updated_at: string;
        };
        /**
         * @example {
         *       "url": "https://hooks.example.com/platform",
         *       "events": [
         *         "content.published",
         *         "content.updated"
         *       ],
         *       "description": "Search index"
         *     }
         */
        CreateWebhook: {
            /**
             * Format: uri
             * @description https only in production; refused when its host resolves to a private, loopback, link-local or metadata address
             * @example https://example.com/hooks/platform
             */
            url: string;
            /**
             * @description Any of: tenant.created, tenant.updated, content.published, content.updated, content.scheduled, content.unpublished, site.created, site.deleted, user.invited, user.joined, api_key.created, api_key.revoked, connection.reauthorization_required, assistant.approval_required, job.failed, order.created, order.updated, source.items_added
             * @example [
             *       "content.published",
             *       "api_key.created"
             *     ]
             */
            events: ("tenant.created" | "tenant.updated" | "content.published" | "content.updated" | "content.scheduled" | "content.unpublished" | "site.created" | "site.deleted" | "user.invited" | "user.joined" | "api_key.created" | "api_key.revoked" | "connection.reauthorization_required" | "assistant.approval_required" | "job.failed" | "order.created" | "order.updated" | "source.items_added")[];
            description?: string;
        };
        WebhookEventTypeList: {
            data: {
                /** @enum {string} */
                type: "tenant.created" | "tenant.updated" | "content.published" | "content.updated" | "content.scheduled" | "content.unpublished" | "site.created" | "site.deleted" | "user.invited" | "user.joined" | "api_key.created" | "api_key.revoked" | "connection.reauthorization_required" | "assistant.approval_required" | "job.failed" | "order.created" | "order.updated" | "source.items_added";
                /** @description When the event occurs */
                summary: string;
            }[];
        };
        /**
         * @example {
         *       "events": [
         *         "content.published"
         *       ],
         *       "description": null
         *     }
         */
        UpdateWebhook: {
            /**
             * Format: uri
             * @description https only in production; refused when its host resolves to a private, loopback, link-local or metadata address
             * @example https://example.com/hooks/platform
             */
            url?: string;
            /**
             * @description Any of: tenant.created, tenant.updated, content.published, content.updated, content.scheduled, content.unpublished, site.created, site.deleted, user.invited, user.joined, api_key.created, api_key.revoked, connection.reauthorization_required, assistant.approval_required, job.failed, order.created, order.updated, source.items_added
             * @example [
             *       "content.published",
             *       "api_key.created"
             *     ]
             */
            events?: ("tenant.created" | "tenant.updated" | "content.published" | "content.updated" | "content.scheduled" | "content.unpublished" | "site.created" | "site.deleted" | "user.invited" | "user.joined" | "api_key.created" | "api_key.revoked" | "connection.reauthorization_required" | "assistant.approval_required" | "job.failed" | "order.created" | "order.updated" | "source.items_added")[];
            description?: string | null;
        };
        WebhookSecret: {
            secret: string;
            previous_secret_expires_at: string | null;
        };
        /**
         * @example {
         *       "overlap_seconds": 3600
         *     }
         */
        RotateWebhookSecret: {
            /**
             * @description How long the previous secret keeps signing x-service-signature (0 = switch at once)
             * @default 86400
             */
            overlap_seconds?: number;
        };
        WebhookDeliveryAttempt: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            delivery_id: string;
            event_id: string;
            event_type: string;
            attempt: number;
            success: boolean;
            status_code: number | null;
            duration_ms: number;
            /** @description The JSON body sent (the same bytes for every attempt of an event) */
            request_body: string;
            /** @description The headers sent, with every signature and secret-looking value masked; null for attempts recorded before headers were kept */
            request_headers: {
                [key: string]: string;
            } | null;
            /** @description The receiver's response body: its first 4096 bytes (UTF-8) */
            response_excerpt: string | null;
            /** @description The response body was longer than 4096 bytes */
            response_truncated: boolean;
            error: string | null;
            attempted_at: string;
            /** @description When the next attempt was scheduled after this one (null: none) */
            next_attempt_at: string | null;
        };
        WebhookDelivery: {
            /** Format: uuid */
            id: string;
            event_id: string;
            event_type: string;
            /** @enum {string} */
            status: "pending" | "held" | "succeeded" | "failed";
            attempts: number;
            next_attempt_at: string | null;
            created_at: string;
        };
        /**
         * @example {
         *       "event_id": "8c5a3e1f-2b4d-4f6a-9e7c-1a2b3c4d5e6f"
         *     }
         */
        RedeliverWebhookEvent: {
            event_id: string;
        };
        WebhookRecoverResult: {
            requeued: number;
        };
        /**
         * @example {
         *       "since": "2026-11-26T00:00:00Z"
         *     }
         */
        RecoverWebhookDeliveries: {
            /**
             * Format: date-time
             * @description Requeue failed deliveries of events created at or after this time
             */
            since: string;
        };
        IntegrationCatalog: {
            /** @description Every category, in the catalog's order; 'integrations' is 0 where the catalog has none yet */
            categories: {
                /** @enum {string} */
                slug: "productivity" | "development" | "office-suite" | "communication" | "storage" | "design" | "analytics" | "crm" | "ecommerce" | "custom";
                integrations: number;
            }[];
            data: components["schemas"]["Integration"][];
        };
        Integration: {
            /** Format: uuid */
            integration_id: string;
            /** @example slack */
            slug: string;
            name: string;
            /** @example team chat */
            kind: string;
            /** @enum {string} */
            category: "productivity" | "development" | "office-suite" | "communication" | "storage" | "design" | "analytics" | "crm" | "ecommerce" | "custom";
            connection_types: ("oauth" | "mcp")[];
            capabilities: string[];
            oauth_scopes: string[];
            /** @enum {string|null} */
            mcp_type: "official" | "self_hosted" | "webhook" | null;
            oauth_configured: boolean;
            /**
             * @example [
             *       "OAUTH_NOTION_CLIENT_ID",
             *       "OAUTH_NOTION_CLIENT_SECRET"
             *     ]
             */
            oauth_settings: string[] | null;
            tools: components["schemas"]["IntegrationTool"][];
        };
        IntegrationTool: {
            /**
             * @description '<integration_slug>:<tool_name>'
             * @example slack:post_message
             */
            name: string;
            /**
             * @description The same tool for clients that refuse ":"
             * @example slack__post_message
             */
            alias: string;
            description: string;
            /** @description JSON Schema of the arguments */
            inputSchema: {
                [key: string]: unknown;
            };
        };
        ClientIdMetadataDocument: {
            /** @example https://api.example.com/api/integrations/client-metadata.json */
            client_id: string;
            client_name: string;
            redirect_uris: string[];
            grant_types: string[];
            response_types: string[];
            /** @enum {string} */
            token_endpoint_auth_method: "none";
        };
        /**
         * @example {
         *       "id": "3f1c2a9e-8b7d-4c6e-9a5f-1d2e3c4b5a69",
         *       "integration_id": "ca78841d-5b84-4382-998e-85c334756ad2",
         *       "integration_slug": "custom-mcp",
         *       "connection_type": "mcp",
         *       "status": "active",
         *       "display_name": "Docs search",
         *       "external_account_name": null,
         *       "scopes": [],
         *       "token_expires_at": null,
         *       "last_refreshed_at": null,
         *       "mcp_server_url": "https://mcp.example.com/mcp",
         *       "mcp_auth_type": "bearer",
         *       "mcp_transport": "streamable_http",
         *       "tool_count": 1,
         *       "tools_discovered_at": "2026-11-27T09:00:00.000Z",
         *       "created_at": "2026-11-27T09:00:00.000Z",
         *       "updated_at": "2026-11-27T09:00:00.000Z",
         *       "tools": [
         *         {
         *           "name": "custom-mcp:search",
         *           "alias": "custom-mcp__search",
         *           "description": "Search the documentation",
         *           "inputSchema": {
         *             "type": "object",
         *             "properties": {
         *               "query": {
         *                 "type": "string"
         *               }
         *             },
         *             "required": [
         *               "query"
         *             ]
         *           }
         *         }
         *       ]
         *     }
         */
        ConnectionDetail: components["schemas"]["Connection"] & {
            tools: components["schemas"]["IntegrationTool"][];
        };
        Connection: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            integration_id: string;
            integration_slug: string;
            /** @enum {string} */
            connection_type: "oauth" | "mcp";
            /** @enum {string} */
            status: "active" | "needs_reauth";
            display_name: string | null;
            external_account_name: string | null;
            scopes: string[];
            token_expires_at: string | null;
            last_refreshed_at: string | null;
            mcp_server_url: string | null;
            /** @enum {string|null} */
            mcp_auth_type: "bearer" | "api_key" | "none" | "oauth" | null;
            /** @enum {string|null} */
            mcp_transport: "streamable_http" | "sse" | null;
            tool_count: number;
            tools_discovered_at: string | null;
            created_at: string;
            updated_at: string;
        };
        /** @description The MCP server signs users in with OAuth: open authorization_url in the same browser; the callback stores the connection and redirects to the dashboard */
        McpAuthorizationStarted: {
            authorization_url: string;
            expires_at: string;
        };
        /**
         * @example {
         *       "integration_id": "ca78841d-5b84-4382-998e-85c334756ad2",
         *       "connection_type": "mcp",
         *       "mcp_server_url": "https://mcp.example.com/mcp",
         *       "mcp_auth_type": "bearer",
         *       "mcp_auth_token": "the-server-token",
         *       "display_name": "Docs search"
         *     }
         */
        ConnectMcpServer: {
            /** Format: uuid */
            integration_id: string;
            /** @enum {string} */
            connection_type: "mcp";
            /**
             * Format: uri
             * @example https://mcp.example.com/mcp
             */
            mcp_server_url: string;
            /**
             * @description 'bearer' or 'api_key' (with mcp_auth_token); 'none' for a server without credentials (one that answers 401 with an OAuth challenge starts the sign-in, as 'oauth' does); 'oauth' answers 202 with the authorization URL
             * @enum {string}
             */
            mcp_auth_type: "bearer" | "api_key" | "none" | "oauth";
            /** @description Write-only: encrypted at once, never returned. Required for 'bearer' and 'api_key' only */
            mcp_auth_token?: string;
            /** @description Used for custom servers */
            display_name?: string;
        };
        IntegrationStats: {
            /** Format: uuid */
            integration_id: string;
            /** @enum {string} */
            period: "24h" | "7d" | "30d";
            from: string;
            to: string;
            total_calls: number;
            success_count: number;
            failure_count: number;
            success_rate: number;
            failure_rate: number;
            avg_response_time_ms: number | null;
            triggered_by: {
                assistant: number;
                automation: number;
                manual: number;
            };
        };
        /**
         * @example {
         *       "display_name": "Team Slack"
         *     }
         */
        RenameConnection: {
            display_name: string;
        };
        ToolPermission: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            connection_id: string;
            tool_name: string;
            allowed: boolean;
            restrictions: {
                [key: string]: unknown;
            };
            requires_approval: boolean;
            created_at: string;
            updated_at: string;
        };
        /**
         * @example {
         *       "tool_name": "slack:post_message",
         *       "allowed": true,
         *       "restrictions": {
         *         "channels": [
         *           "C0123456789"
         *         ]
         *       }
         *     }
         */
        SetToolPermission: {
            /**
             * @description Tool name or its alias; on an MCP connection also '<slug>:resources/*' or '<slug>:prompts/*'
             * @example slack:post_message
             */
            tool_name: string;
            allowed: boolean;
            /** @description Depends on the tool: channels, databases, repositories or recipients (see docs) */
            restrictions?: {
                [key: string]: unknown;
            };
            /** @description The assistant pauses before each call until an owner or admin approves it (docs/assistant.md). Omitted: unchanged (false for a new row) */
            requires_approval?: boolean;
        };
        CommerceReceipt: {
            /** @enum {string} */
            status: "accepted" | "duplicate" | "ignored" | "ping";
            /** Format: uuid */
            delivery_id: string | null;
        };
        CommerceStore: {
            /** Format: uuid */
            id: string;
            /** @enum {string} */
            platform: "shopify" | "woocommerce";
            name: string;
            /** @description Shopify: the myshopify.com domain */
            shop_domain: string | null;
            /** @description WooCommerce: the site URL */
            site_url: string | null;
            /**
             * @description The delivery URL to paste into the shop's webhook settings: the store's own address, for Shopify and WooCommerce alike
             * @example https://<ref>.supabase.co/functions/v1/commerce-webhook/stores/7b0f0c36-3f5e-4a55-9a43-7c6d3e1d1d11
             */
            webhook_url: string;
            secret_updated_at: string;
            created_at: string;
            updated_at: string;
        };
        /**
         * @example {
         *       "platform": "shopify",
         *       "shop_domain": "acme.myshopify.com",
         *       "name": "Acme shop",
         *       "secret": "the-shopify-app-client-secret"
         *     }
         */
        CreateCommerceStore: {
            /** @enum {string} */
            platform: "shopify";
            /** @example example-shop.myshopify.com */
            shop_domain: string;
            /** @example Main shop */
            name: string;
            /** @description The webhook signing secret; write-only, stored encrypted */
            secret: string;
        } | {
            /** @enum {string} */
            platform: "woocommerce";
            /**
             * Format: uri
             * @example https://shop.example.com
             */
            site_url: string;
            /** @example Main shop */
            name: string;
            /** @description The webhook signing secret; write-only, stored encrypted */
            secret: string;
        };
        /**
         * @example {
         *       "name": "Acme shop (EU)"
         *     }
         */
        UpdateCommerceStore: {
            /** @example Main shop */
            name?: string;
            /**
             * @description Shopify stores only
             * @example example-shop.myshopify.com
             */
            shop_domain?: string;
            /**
             * Format: uri
             * @description WooCommerce stores only
             * @example https://shop.example.com
             */
            site_url?: string;
        };
        /**
         * @example {
         *       "secret": "the-new-webhook-signing-secret"
         *     }
         */
        RotateCommerceStoreSecret: {
            /** @description The webhook signing secret; write-only, stored encrypted */
            secret: string;
        };
        CommerceDelivery: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            store_id: string;
            /** @enum {string} */
            platform: "shopify" | "woocommerce";
            topic: string;
            webhook_id: string;
            event_id: string | null;
            triggered_at: string | null;
            api_version: string | null;
            payload_bytes: number;
            /**
             * @description pending (queued or retrying), processed, ignored (a topic outside the five), failed (dead letter)
             * @enum {string}
             */
            status: "pending" | "processed" | "ignored" | "failed";
            /** @description applied, stale (older than the stored record) */
            outcome: string | null;
            last_error: string | null;
            attempts: number;
            next_attempt_at: string | null;
            received_at: string;
            processed_at: string | null;
        };
        CommerceOrder: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            store_id: string;
            /** @description The shop's order id (a string: 64-bit ids) */
            external_id: string;
            order_number: string | null;
            currency: string;
            /**
             * @description Decimal amount as a string
             * @example 199.00
             */
            total_price: string;
            /**
             * @description Decimal amount as a string
             * @example 199.00
             */
            subtotal_price: string | null;
            /**
             * @description Decimal amount as a string
             * @example 199.00
             */
            total_tax: string | null;
            /**
             * @description Decimal amount as a string
             * @example 199.00
             */
            total_discounts: string | null;
            /**
             * @description Decimal amount as a string
             * @example 199.00
             */
            total_shipping: string | null;
            financial_status: string | null;
            fulfillment_status: string | null;
            /** @description WooCommerce's own order status */
            source_status: string | null;
            /** @description The shop's customer id; no other customer data is kept */
            customer_ref: string | null;
            line_items: {
                external_id: string;
                product_id: string | null;
                variant_id: string | null;
                sku: string | null;
                title: string | null;
                quantity: number;
                /**
                 * @description Decimal amount as a string
                 * @example 199.00
                 */
                price: string | null;
            }[];
            source_created_at: string | null;
            source_updated_at: string;
            synced_at: string;
        };
        CommerceProduct: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            store_id: string;
            external_id: string;
            title: string | null;
            handle: string | null;
            status: string | null;
            product_type: string | null;
            vendor: string | null;
            /**
             * @description Decimal amount as a string
             * @example 199.00
             */
            price_min: string | null;
            /**
             * @description Decimal amount as a string
             * @example 199.00
             */
            price_max: string | null;
            inventory_quantity: number | null;
            variants: {
                external_id: string;
                title: string | null;
                sku: string | null;
                /**
                 * @description Decimal amount as a string
                 * @example 199.00
                 */
                price: string | null;
                /**
                 * @description Decimal amount as a string
                 * @example 199.00
                 */
                compare_at_price: string | null;
                inventory_quantity: number | null;
            }[];
            images: {
                external_id: string | null;
                src: string;
                alt: string | null;
                position: number | null;
            }[];
            deleted: boolean;
            deleted_at: string | null;
            source_created_at: string | null;
            source_updated_at: string;
            synced_at: string;
        };
        AcceptedJob: {
            /** Format: uuid */
            job_id: string;
            kind: string;
            /** @enum {string} */
            status: "queued" | "running" | "succeeded" | "failed";
            /** @example /api/jobs/4f0c... */
            status_url: string;
        };
        /**
         * @example {
         *       "source_id": "8c5a3e1f-2b4d-4f6a-9e7c-1a2b3c4d5e6f"
         *     }
         */
        TriggerScrape: {
            /** Format: uuid */
            source_id: string;
            /**
             * Format: uuid
             * @description Required with the service-role key; else the caller's own tenant
             */
            tenant_id?: string;
        };
        Source: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            site_id: string;
            name: string;
            /** @enum {string} */
            kind: "feed" | "apify";
            config: {
                [key: string]: unknown;
            };
            /** @enum {string|null} */
            schedule: "every_minute" | "every_5_minutes" | "every_15_minutes" | "hourly" | "every_6_hours" | "daily" | null;
            enabled: boolean;
            next_run_at: string | null;
            last_run_at: string | null;
            /** @enum {string|null} */
            last_status: "succeeded" | "failed" | null;
            last_error: string | null;
            /** Format: uuid */
            last_job_id: string | null;
            created_at: string;
            updated_at: string;
        };
        /**
         * @example {
         *       "name": "Garden news",
         *       "site_id": "5b1d7c3e-9f2a-4e6b-8d1c-3a4b5c6d7e8f",
         *       "kind": "feed",
         *       "config": {
         *         "url": "https://news.example.com/feed.xml"
         *       },
         *       "schedule": "hourly"
         *     }
         */
        CreateSource: {
            name: string;
            /** Format: uuid */
            site_id: string;
            /** @enum {string} */
            kind: "feed" | "apify";
            /** @description feed: {url}; apify: {actor_id, input, timeout_seconds, max_items, credential_environment} */
            config: {
                [key: string]: unknown;
            };
            /**
             * @description Run on its own; null runs only when triggered
             * @default null
             * @enum {string|null}
             */
            schedule?: "every_minute" | "every_5_minutes" | "every_15_minutes" | "hourly" | "every_6_hours" | "daily" | null;
            /** @default true */
            enabled?: boolean;
        };
        /**
         * @example {
         *       "schedule": "daily",
         *       "enabled": false
         *     }
         */
        UpdateSource: {
            name?: string;
            /** Format: uuid */
            site_id?: string;
            config?: {
                [key: string]: unknown;
            };
            /**
             * @description Run on its own; null runs only when triggered
             * @enum {string|null}
             */
            schedule?: "every_minute" | "every_5_minutes" | "every_15_minutes" | "hourly" | "every_6_hours" | "daily" | null;
            enabled?: boolean;
        };
        SourceItem: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            source_id: string;
            external_id: string;
            url: string | null;
            title: string | null;
            text: string | null;
            author: string | null;
            media: {
                url: string;
                type: string | null;
            }[];
            published_at: string | null;
            created_at: string;
        };
        /**
         * @example {
         *       "site_id": "5b1d7c3e-9f2a-4e6b-8d1c-3a4b5c6d7e8f",
         *       "source_id": "8c5a3e1f-2b4d-4f6a-9e7c-1a2b3c4d5e6f",
         *       "max_items": 5,
         *       "instructions": "A friendly round-up in 400 words",
         *       "provider": "openai"
         *     }
         */
        GenerateArticle: {
            /**
             * Format: uuid
             * @description The site the draft is created in
             */
            site_id: string;
            /** @description Scraped items to write from (GET /api/sources/{id}/items); or source_id */
            item_ids?: string[];
            /**
             * Format: uuid
             * @description Write from this source's newest items; or item_ids
             */
            source_id?: string;
            /**
             * @description With source_id: how many of its newest items
             * @default 10
             */
            max_items?: number;
            /** @description Editorial instructions: tone, length, audience, language */
            instructions?: string;
            /**
             * @description Whose API: OpenAI-compatible Chat Completions, or Anthropic Messages; the tenant's vault credential of that provider (category AI) is used
             * @default openai
             * @enum {string}
             */
            provider?: "openai" | "anthropic";
            /** @description The model id (default gpt-4o-mini / claude-sonnet-4-6) */
            model?: string;
            /**
             * @default production
             * @enum {string}
             */
            credential_environment?: "development" | "staging" | "production";
            /**
             * Format: uuid
             * @description Required with the service-role key; else the caller's own tenant
             */
            tenant_id?: string;
        };
        AffiliateDestination: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            site_id: string;
            name: string;
            /** @enum {string|null} */
            schedule: "hourly" | "every_6_hours" | "daily" | null;
            enabled: boolean;
            next_run_at: string | null;
            last_run_at: string | null;
            /** @enum {string|null} */
            last_status: "succeeded" | "failed" | null;
            last_error: string | null;
            /** Format: uuid */
            last_job_id: string | null;
            programs: components["schemas"]["AffiliateProgram"][];
            created_at: string;
            updated_at: string;
        };
        AffiliateProgram: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            destination_id: string;
            /** @enum {string} */
            network: "awin" | "cj" | "amazon" | "feed";
            name: string;
            merchant_ids: string[];
            config: {
                [key: string]: unknown;
            };
            tracking_id: string | null;
            credential_name: string | null;
            currency: string | null;
            created_at: string;
        };
        AffiliateProduct: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            destination_id: string;
            /** Format: uuid */
            program_id: string;
            /** @enum {string} */
            network: "awin" | "cj" | "amazon" | "feed";
            external_id: string;
            merchant: string | null;
            title: string;
            description: string | null;
            category: string | null;
            /**
             * @description Exact decimal as a string
             * @example 19.99
             */
            price: string;
            /**
             * @description Exact decimal as a string
             * @example 19.99
             */
            sale_price: string | null;
            currency: string;
            /** @enum {string} */
            availability: "in_stock" | "out_of_stock" | "preorder" | "backorder" | "unavailable";
            image_url: string | null;
            affiliate_url: string;
            gtin: string | null;
            /**
             * @description Exact decimal as a string
             * @example 19.99
             */
            previous_price: string | null;
            /**
             * @description Exact decimal as a string
             * @example 19.99
             */
            previous_sale_price: string | null;
            price_changed_at: string | null;
            last_synced_at: string;
            raw?: {
                [key: string]: unknown;
            };
        };
        AssistantConversation: {
            /** Format: uuid */
            id: string;
            title: string;
            /**
             * @description default: no message yet; rule: the first message, shortened; model: named by a short model call from the first exchange; user: set by a person (never overwritten)
             * @enum {string}
             */
            title_source: "default" | "rule" | "model" | "user";
            /** Format: uuid */
            created_by: string | null;
            usage: components["schemas"]["TokenUsage"];
            last_message_at: string | null;
            created_at: string;
            updated_at: string;
        };
        /**
         * @example {
         *       "input_tokens": 412,
         *       "output_tokens": 96
         *     }
         */
        TokenUsage: {
            input_tokens: number;
            output_tokens: number;
        };
        /**
         * @example {
         *       "title": "Weekly newsletter"
         *     }
         */
        CreateConversation: {
            /** @description Default: "New conversation"; the first message names it otherwise */
            title?: string;
        };
        AssistantConversationList: {
            data: components["schemas"]["AssistantConversation"][];
            next_cursor: string | null;
        };
        AssistantConversationDetail: components["schemas"]["AssistantConversation"] & {
            /** @description Oldest first, with their tool calls */
            messages: components["schemas"]["AssistantMessage"][];
            /** @description Oldest first; the last shows a turn in progress */
            turns: components["schemas"]["AssistantTurn"][];
            /** @description Earlier versions of exchanges (regenerated or edited), oldest first; `messages` is the newest version of each */
            alternatives: components["schemas"]["AssistantAlternative"][];
        };
        AssistantMessage: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            turn_id: string | null;
            /** @enum {string} */
            role: "user" | "assistant";
            content: string;
            tool_calls: components["schemas"]["AssistantToolCall"][];
            created_at: string;
        };
        AssistantToolCall: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            turn_id: string;
            /** Format: uuid */
            message_id: string;
            /**
             * @description The name the model used (provider-safe)
             * @example slack__post_message
             */
            name: string;
            /** @example slack:post_message */
            tool: string;
            arguments: {
                [key: string]: unknown;
            };
            /** @enum {string} */
            status: "running" | "awaiting_approval" | "approved" | "denied" | "ok" | "refused" | "invalid" | "failed" | "interrupted" | "cancelled";
            /** @description What went back to the model (bounded) */
            result: string | null;
            /** Format: uuid */
            decided_by: string | null;
            created_at: string;
            finished_at: string | null;
        };
        AssistantTurn: {
            /** Format: uuid */
            id: string;
            /** @enum {string} */
            status: "running" | "awaiting_approval" | "completed" | "failed" | "stopped" | "cancelled";
            /** @enum {string} */
            triggered_by: "assistant" | "automation";
            /** @enum {string} */
            provider: "openai" | "anthropic";
            model: string;
            steps: number;
            usage: components["schemas"]["TokenUsage"];
            /** @description Why a turn failed or stopped */
            error: string | null;
            /** @description When someone asked to stop it; the turn records cancelled at its next step */
            cancel_requested_at: string | null;
            /**
             * Format: uuid
             * @description The exchange (a user message and its answer) this turn is a version of
             */
            exchange_id: string;
            /** @description The exchange's version this turn is (1, 2, ...) */
            version: number;
            /**
             * Format: uuid
             * @description The user message it answers
             */
            user_message_id: string | null;
            /** @description A later version (regenerate or edit) replaced it; it is an alternative */
            superseded: boolean;
            created_at: string;
            finished_at: string | null;
        };
        AssistantAlternative: {
            /** Format: uuid */
            exchange_id: string;
            version: number;
            /** Format: uuid */
            turn_id: string;
            /** @description The user message it answered, then its answers with their tool calls */
            messages: components["schemas"]["AssistantMessage"][];
        };
        AssistantTurnResult: {
            turn: components["schemas"]["AssistantTurn"];
            message: components["schemas"]["AssistantMessage"] & (Record<string, never> | null);
            /** @description Every tool call of the turn */
            tool_calls: components["schemas"]["AssistantToolCall"][];
            usage: components["schemas"]["TokenUsage"];
            /** @description The month's Assistant API tokens and the plan's quota (null: unlimited) */
            quota: {
                used: number;
                limit: number | null;
            };
        };
        /**
         * @example {
         *       "content": "Post the title of our newest draft to #content on Slack."
         *     }
         */
        PostMessage: {
            /** @description The user's message (1 to 32000 characters) */
            content: string;
        };
        /**
         * @example {
         *       "approve": true
         *     }
         */
        ToolCallApproval: {
            /** @description true runs the tool call, false refuses it */
            approve: boolean;
            /** @description Told to the model with a denial */
            reason?: string;
            /**
             * Format: date-time
             * @description Approving a platform:schedule_article call: the time to publish at instead of the one the model chose; a time already past publishes at once
             */
            publish_at?: string;
        };
        AssistantApprovalList: {
            data: components["schemas"]["AssistantApproval"][];
            next_cursor: string | null;
        };
        AssistantApproval: {
            /**
             * Format: uuid
             * @description The tool call; decide it with POST /approvals/{id}
             */
            id: string;
            /** @enum {string} */
            status: "pending" | "approved" | "denied" | "expired";
            /** @example slack:post_message */
            tool: string;
            arguments: {
                [key: string]: unknown;
            };
            /** Format: uuid */
            conversation_id: string;
            conversation_title: string;
            /** Format: uuid */
            turn_id: string;
            /** @enum {string} */
            triggered_by: "assistant" | "automation";
            /** @description The automation whose run asked, or null for a conversation */
            automation: {
                /** Format: uuid */
                id: string;
                name: string;
            } | null;
            /**
             * Format: uuid
             * @description The member the turn runs as
             */
            requested_by: string | null;
            created_at: string;
            expires_at: string;
            /**
             * Format: uuid
             * @description Null while pending and when it expired
             */
            decided_by: string | null;
            /** @description When it was decided or expired */
            decided_at: string | null;
            /** @description What the model was told on a denial or expiry */
            reason: string | null;
        };
        AssistantCancelledTurn: {
            turn: components["schemas"]["AssistantTurn"];
        };
        /**
         * @example {
         *       "title": "Spring menu launch"
         *     }
         */
        RenameConversation: {
            title: string;
        };
        AssistantSettings: {
            /** @enum {string|null} */
            provider: "openai" | "anthropic" | null;
            model: string | null;
            /** @enum {string} */
            credential_environment: "development" | "staging" | "production";
            instructions: string | null;
            approval_ttl_hours: number;
            /** @description What the next turn will use */
            effective: {
                /** @enum {string|null} */
                provider: "openai" | "anthropic" | null;
                model: string | null;
                /** @description Whether a usable AI credential exists */
                credential: boolean;
            };
        };
        /**
         * @example {
         *       "provider": "anthropic",
         *       "model": "claude-sonnet-4-6"
         *     }
         */
        AssistantSettingsUpdate: {
            /**
             * @description OpenAI-compatible Chat Completions or Anthropic Messages; null picks the provider of the tenant's AI credential (OpenAI first)
             * @enum {string|null}
             */
            provider?: "openai" | "anthropic" | null;
            /** @description The model id; null is the default (gpt-4o-mini / claude-sonnet-4-6) */
            model?: string | null;
            /** @enum {string} */
            credential_environment?: "development" | "staging" | "production";
            /** @description The tenant's own instructions, added to the system prompt */
            instructions?: string | null;
            /** @description How long a tool call waits for approval before it counts as denied (1 to 720 hours; 24 by default) */
            approval_ttl_hours?: number;
        };
        AutomationList: {
            data: components["schemas"]["Automation"][];
        };
        Automation: {
            /** Format: uuid */
            id: string;
            name: string;
            instruction: string;
            /** @description The cron schedule; null for an event trigger */
            schedule: string | null;
            trigger: components["schemas"]["AutomationTrigger"];
            enabled: boolean;
            /**
             * @description Why the platform turned it off: its creator left the tenant (creator_removed) or is no longer an owner or admin (creator_demoted). It runs as its creator, never as anyone else. Null while enabled or when a person turned it off.
             * @enum {string|null}
             */
            disabled_reason: "creator_removed" | "creator_demoted" | null;
            next_run_at: string | null;
            last_run_at: string | null;
            last_run: components["schemas"]["AutomationRun"];
            /**
             * @description Write tools (REST names, e.g. platform:update_article) that run without approval in this automation's event-started runs. Every other write tool of such a run waits for an owner's or admin's approval, since the event's data carries text others wrote. Tools that always wait (publish, schedule, a connection's tool marked requires_approval) still wait.
             * @example [
             *       "platform:update_article"
             *     ]
             */
            unattended_tools: string[];
            /** Format: uuid */
            created_by: string | null;
            created_at: string;
            updated_at: string;
        };
        /**
         * @example {
         *       "type": "event",
         *       "event": "content.published"
         *     }
         */
        AutomationTrigger: {
            /** @enum {string} */
            type: "schedule";
            /**
             * @description A 5-field cron expression in UTC (minute hour day month weekday)
             * @example 0 8 * * 1-5
             */
            schedule: string;
        } | {
            /** @enum {string} */
            type: "event";
            /**
             * @description The platform event of the tenant that starts a run (once per event); its data is given to the turn
             * @enum {string}
             */
            event: "content.published" | "content.updated" | "source.items_added" | "order.created" | "order.updated";
        };
        AutomationRun: {
            /** Format: uuid */
            id: string;
            /** @description The scheduled time this run is for, or the time of the event that started it */
            slot: string;
            /** @description The event that started the run (evt_...) */
            event_id: string | null;
            event_type: string | null;
            /** Format: uuid */
            conversation_id: string | null;
            /** Format: uuid */
            turn_id: string | null;
            /**
             * @description pending: an event queued it for the next sweep; failed: the turn could not start (see error)
             * @enum {string}
             */
            status: "pending" | "started" | "failed";
            /** @description The turn's status: completed, awaiting_approval, ... */
            turn_status: string | null;
            error: string | null;
            created_at: string;
        } | null;
        /**
         * @example {
         *       "name": "Morning draft",
         *       "instruction": "Draft an article for the site Bistro Journal from yesterday's new source items, then post its title to #content on Slack.",
         *       "schedule": "0 8 * * 1-5"
         *     }
         */
        AutomationInput: {
            name: string;
            /** @description What the assistant is asked each time, as a user message */
            instruction: string;
            /**
             * @description Shorthand for trigger {type: "schedule", schedule}: a 5-field cron expression in UTC
             * @example 0 8 * * 1-5
             */
            schedule?: string;
            trigger?: components["schemas"]["AutomationTrigger"] & unknown;
            enabled?: boolean;
            /**
             * @description Write tools (REST names, e.g. platform:update_article) that run without approval in this automation's event-started runs. Every other write tool of such a run waits for an owner's or admin's approval, since the event's data carries text others wrote. Tools that always wait (publish, schedule, a connection's tool marked requires_approval) still wait.
             * @example [
             *       "platform:update_article"
             *     ]
             */
            unattended_tools?: string[];
        };
        /**
         * @example {
         *       "enabled": false
         *     }
         */
        AutomationUpdate: {
            name?: string;
            /** @description What the assistant is asked each time, as a user message */
            instruction?: string;
            /**
             * @description Shorthand for trigger {type: "schedule", schedule}: a 5-field cron expression in UTC
             * @example 0 8 * * 1-5
             */
            schedule?: string;
            trigger?: components["schemas"]["AutomationTrigger"] & unknown;
            enabled?: boolean;
            /**
             * @description Write tools (REST names, e.g. platform:update_article) that run without approval in this automation's event-started runs. Every other write tool of such a run waits for an owner's or admin's approval, since the event's data carries text others wrote. Tools that always wait (publish, schedule, a connection's tool marked requires_approval) still wait.
             * @example [
             *       "platform:update_article"
             *     ]
             */
            unattended_tools?: string[];
        };
        AutomationRunList: {
            data: components["schemas"]["AutomationRun"][];
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export type operations = Record<string, never>;
