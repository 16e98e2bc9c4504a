import type { StreamEventName } from '../schema.ts'

/** `id`: the event's number in its turn (the SSE id), once the turn's event log numbered it. */
export type TurnEvent = { event: StreamEventName; data: unknown; id?: number }

/**
 * Where a running turn sends its events. The front end that runs a turn passes its own (the HTTP
 * stream writes them out as server-sent events); a turn nobody watches (the sweep, an automation)
 * gets `noTurnEvents`. Everything an event says is stored as well, so a sink that drops events
 * loses nothing.
 */
export interface TurnEvents {
  emit(event: TurnEvent): void
}

export const noTurnEvents: TurnEvents = { emit() {} }

export type TurnEmit = (event: StreamEventName, data: unknown) => void

/** A sink whose failure (a client that went away) never stops the turn. */
export function guarded(events: TurnEvents): TurnEmit {
  return (event, data) => {
    try {
      events.emit({ event, data })
    } catch {
      // A listener whose client went away: the turn goes on.
    }
  }
}
