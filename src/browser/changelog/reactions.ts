import { h } from '../shared/dom';
import type { WidgetEntry, WidgetReactions } from './types';

/** The spec's reaction names, each shown as an emoji with its name for screen readers. */
const REACTIONS: Record<string, [emoji: string, name: string]> = {
  like: ['👍', 'Like'],
  celebrate: ['🎉', 'Celebrate'],
  love: ['❤️', 'Love'],
  laugh: ['😄', 'Laugh'],
  fire: ['🔥', 'Fire'],
  eyes: ['👀', 'Eyes'],
  confused: ['😕', 'Confused'],
  dislike: ['👎', 'Dislike'],
};

/** Sends a reaction (`on`) or takes it back; answers the entry's counts and this person's reaction. */
export type SendReaction = (entry: WidgetEntry, name: string, on: boolean) => Promise<WidgetReactions>;

/**
 * The entry's reaction buttons, one per name of the project's reaction set, in its order: a toggle
 * (aria-pressed) with the number of people who hold it. One reaction per person: pressing another
 * replaces it, pressing the held one takes it back; the service's answer is what is shown.
 */
export function reactionBar(entry: WidgetEntry, set: readonly string[], send: SendReaction): HTMLElement | null {
  if (set.length === 0) return null;
  let state: WidgetReactions = { reactions: entry.reactions, my_reaction: entry.my_reaction };
  let pending = false;
  const buttons = set.map((name) => {
    const [emoji, label] = REACTIONS[name] ?? ['•', name];
    const count = h('span', { class: 'count' });
    const button = h('button', { type: 'button', class: 'reaction' }, h('span', { class: 'emoji' }, emoji), count);
    button.addEventListener('click', () => {
      if (pending) return;
      pending = true;
      send(entry, name, state.my_reaction !== name)
        .then((answer) => {
          state = answer;
          paint();
        })
        .catch(() => undefined)
        .finally(() => (pending = false));
    });
    return { name, label, button, count };
  });
  const paint = () => {
    for (const { name, label, button, count } of buttons) {
      const people = state.reactions[name];
      button.setAttribute('aria-pressed', String(state.my_reaction === name));
      button.setAttribute('aria-label', people ? `${label} (${people})` : label);
      count.textContent = people ? String(people) : '';
    }
  };
  paint();
  return h('div', { class: 'reactions', role: 'group', 'aria-label': 'Reactions' }, ...buttons.map(({ button }) => button));
}
