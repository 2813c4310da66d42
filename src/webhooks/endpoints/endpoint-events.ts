import { ApiError } from '../../common/errors/api-error';
import { EVENT_TYPES } from '../../events/event-catalog';

/** `events: ["*"]`: every type, including those added later. */
const ALL_EVENTS = '*';

/**
 * The subscription list of an endpoint: a non-empty list of catalog types, or exactly `["*"]`.
 * Duplicates are dropped (first position kept): they would not deliver twice anyway. An unknown
 * type is VALIDATION_ERROR on its own position (`events.2`), as the validation pipe names array items.
 */
export function parseEvents(events: string[]): string[] {
  if (events.length === 0)
    throw new ApiError('VALIDATION_ERROR', 'Events must list at least one event type, or be ["*"].', { param: 'events' });
  if (events.includes(ALL_EVENTS)) {
    if (events.some((type) => type !== ALL_EVENTS)) {
      throw new ApiError('VALIDATION_ERROR', 'Events must be either ["*"] alone or a list of event types, not both.', { param: 'events' });
    }
    return [ALL_EVENTS];
  }
  events.forEach((type, index) => {
    if (!(EVENT_TYPES as string[]).includes(type)) {
      throw new ApiError('VALIDATION_ERROR', `Events.${index} "${type.slice(0, 64)}" is not an event type.`, {
        param: `events.${index}`,
        remediation: `Use one of ${EVENT_TYPES.join(', ')}, or ["*"] for all.`,
      });
    }
  });
  return [...new Set(events)];
}

/** Whether an endpoint subscribed with `events` receives `type`. */
export function subscribesTo(events: readonly string[], type: string): boolean {
  return events.includes(ALL_EVENTS) || events.includes(type);
}
