import { pickEventData } from '../events/event-catalog';
import { toFeedbackDto } from './dto/feedback.dto';
import type { FeedbackEntity } from './entities/feedback.entity';

/**
 * The `data` of `feedback.created` (spec: Events → Event types): the catalog's fields of the
 * public record, which has no email; `has_email` says whether one exists.
 */
export function feedbackCreatedData(row: FeedbackEntity): Record<string, unknown> {
  return pickEventData('feedback.created', toFeedbackDto(row));
}
