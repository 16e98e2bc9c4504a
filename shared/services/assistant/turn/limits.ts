/** The job kind a turn runs as (the job engine's). */
export const TURN_JOB_KIND = 'assistant.turn'
/** Who approves tool calls, and whose automations run: owners and admins. */
export const managerRoles = ['owner', 'admin'] as const
/** Model calls per turn (each followed by its tool calls). */
export const MAX_STEPS = 8
/** Tool calls the model may ask for in one step; the rest are refused. */
export const MAX_CALLS_PER_STEP = 8
/** What a tool result may weigh when it goes back to the model. */
export const MAX_TOOL_RESULT_CHARS = 16_000
export const MAX_OUTPUT_TOKENS = 2000
export const PROVIDER_TIMEOUT_MS = 120_000
/**
 * While a model call streams, how often the turn reads its Stop mark (one indexed read of its own
 * row, on whichever instance runs it): Stop cuts the call within this plus a query's time.
 */
export const CANCEL_POLL_MS = 300
/** The lease: longer than the turn may take on one instance (edge runtime wall clock 150 s). */
export const TURN_LEASE_SECONDS = 360
/** Messages of the conversation sent with each call (the newest). */
export const HISTORY_MESSAGES = 60
