import type { SpamVerdict } from './spam';

/**
 * How the rules and the model are combined into one answer:
 * - the spam rules (keyboard mashing, link stuffing, promo vocabulary) are
 *   precise and win outright: junk says nothing about intent, so no hint or
 *   model score should rescue it;
 * - otherwise the model's most probable class wins, except that the model
 *   alone may call something spam only when it is sure: real feedback dropped
 *   as spam is the costliest mistake, so below SPAM_MIN the next class wins.
 * Confidence is the calibrated probability of the chosen class.
 */
const SPAM_MIN_PROBABILITY = 0.7;

interface Verdict {
  readonly label: string;
  readonly confidence: number;
}

export function decideVerdict(spam: SpamVerdict, classes: readonly string[], probabilities: ArrayLike<number>): Verdict {
  if (spam.isSpam) return { label: 'spam', confidence: spam.strength };
  let best = -1;
  for (let c = 0; c < classes.length; c += 1) {
    if (classes[c] === 'spam' && probabilities[c] < SPAM_MIN_PROBABILITY) continue;
    if (best < 0 || probabilities[c] > probabilities[best]) best = c;
  }
  return { label: classes[best], confidence: probabilities[best] };
}
