/** Spec: Reaction set. The fixed names, the default set and its size limit. */
export const REACTION_NAMES = ['like', 'celebrate', 'love', 'laugh', 'fire', 'eyes', 'confused', 'dislike'] as const;
export type ReactionName = (typeof REACTION_NAMES)[number];

const DEFAULT_REACTION_SET: readonly ReactionName[] = ['like', 'celebrate', 'dislike'];
export const MAX_REACTION_SET = 5;

/** The project's reaction set as stored in its settings, or the default when it never set one. */
export function reactionSetOf(settings: { changelog_reaction_set?: readonly ReactionName[] }): ReactionName[] {
  return [...(settings.changelog_reaction_set ?? DEFAULT_REACTION_SET)];
}
