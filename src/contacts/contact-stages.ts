/**
 * A contact's stage says how far a person has come with the product. It only moves forward:
 * an upsert with an earlier stage keeps the later one.
 *
 * - `lead`: we know an email (changelog subscriber, feedback with an email)
 * - `waitlist`: joined the waitlist
 * - `invited`: invited from the waitlist
 * - `user`: uses the product (identified with a user id)
 *
 * Paying is a separate flag, not a stage: a paying user can still be on any stage.
 */
export const CONTACT_STAGES = ['lead', 'waitlist', 'invited', 'user'] as const;
export type ContactStage = (typeof CONTACT_STAGES)[number];

export function laterStage(current: ContactStage, proposed: ContactStage | undefined): ContactStage {
  if (!proposed) return current;
  return CONTACT_STAGES.indexOf(proposed) > CONTACT_STAGES.indexOf(current) ? proposed : current;
}
