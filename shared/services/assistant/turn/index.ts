/**
 * An assistant turn, in parts: start.ts (start, approvals, the result), answer.ts (what a request
 * that runs or follows a turn answers: its events), steps.ts (the job that runs it), model-call.ts
 * (a step's model call), tool-call.ts, model-choice.ts, shaping.ts (pure: history, tool results,
 * the result's shape), store.ts and job-store.ts (the statements on a turn's rows, as the caller
 * and as the job), events.ts (where a running turn's events go). The engine that sweeps turns sits
 * beside automations (../sweep.ts), which start turns.
 */
export { answerTurn, type TurnAnswerRequest } from './answer.ts'
export type { TurnEvent } from './events.ts'
export { managerRoles, TURN_JOB_KIND } from './limits.ts'
export { modelChoice } from './model-choice.ts'
export { decideApproval, startTurn } from './start.ts'
export { runTurnNow, turnJobKind } from './steps.ts'
