import type { FeedbackEntity } from './entities/feedback.entity';

/**
 * The `data` of `feedback.created` (spec: Events → Event types). The submitter's email is never in
 * it; `has_email` says whether one exists.
 */
export function feedbackCreatedData(row: FeedbackEntity): Record<string, unknown> {
  return {
    feedback_id: row.id,
    feedback_text: row.feedbackText,
    classification: row.classification,
    confidence: row.confidence,
    summary: row.summary,
    user_id: row.userId,
    page_url: row.pageUrl,
    rating: row.rating,
    has_email: row.email !== null,
    created_at: row.createdAt.toISOString(),
  };
}
