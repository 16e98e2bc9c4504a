/**
 * An assistant turn, in parts: start.ts (start, approvals, the result), steps.ts (the job that
 * runs it), model-choice.ts, shaping.ts (pure: history, tool results, the result's shape),
 * store.ts (every statement on a turn's rows), events.ts (where a running turn's events go).
 * The engine that sweeps turns sits beside automations (../sweep.ts), which start turns.
 */
export { noTurnEvents, type TurnEvent, type TurnEvents } from './events.ts'
export { MAX_CALLS_PER_STEP, MAX_OUTPUT_TOKENS, MAX_STEPS, managerRoles, TURN_JOB_KIND } from './limits.ts'
export { type ModelChoice, modelChoice } from './model-choice.ts'
export { boundResult, inputTokenBound, SYSTEM_PROMPT } from './shaping.ts'
export { decideApproval, type StartedTurn, type StartTurnOptions, startTurn, turnResult } from './start.ts'
export { runTurnJob, runTurnNow, turnJobKind } from './steps.ts'
