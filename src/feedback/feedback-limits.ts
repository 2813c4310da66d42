/**
 * Feedback input limits (spec: Feedback input and Limits → Feedback). Lengths count Unicode code
 * points (an emoji is one character), after trimming for `feedback_text`. The email follows the
 * shared rule of `@EmailField`.
 */
export const FEEDBACK_LIMITS = {
  textMin: 10,
  textMax: 2000,
  userIdMax: 256,
  pageUrlMax: 2048,
  ratingMin: 1,
  ratingMax: 5,
} as const;
