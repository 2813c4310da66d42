export const FEEDBACK_CLASSIFICATIONS = ['bug', 'feature_request', 'praise', 'billing', 'support', 'other', 'spam'] as const;
export type FeedbackClassification = (typeof FEEDBACK_CLASSIFICATIONS)[number];

export const CATEGORY_HINTS = ['bug', 'feature_request', 'praise', 'billing', 'support'] as const;
export type CategoryHint = (typeof CATEGORY_HINTS)[number];
