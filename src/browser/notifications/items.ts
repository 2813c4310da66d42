import { h } from '../shared/dom';
import type { LabelName } from './settings';

/** A bell item as `GET /v1/notifications/inbox` answers it (BellNotificationDto). */
export interface BellItem {
  id: string;
  title: string;
  body: string;
  action_url: string | null;
  icon: string;
  category: string | null;
  actions: Action[];
  data: Record<string, unknown> | null;
  created_at: string;
  read: boolean;
  clicked: boolean;
  archived: boolean;
  broadcast: boolean;
  pinned: boolean;
  reactions: string[] | null;
  reaction: string | null;
}

export interface Action {
  label: string;
  url: string;
}

export interface ItemHandlers {
  /** The title (action null) or one of the buttons was chosen. */
  activate(item: BellItem, action: Action | null): void;
  /** Archive, or restore in the archived view. */
  archive(item: BellItem): void;
  /** Choose `name`, or take it back when it is the person's reaction already. */
  react(item: BellItem, name: string): void;
}

/** What the list draws: items (null while loading) or a message, and which view. */
export interface ListState {
  items: BellItem[] | null;
  message: string | null;
  archived: boolean;
}

/** The changelog's reaction set (src/changelog/shared/reaction-set.ts), as emoji. */
const EMOJI: Record<string, string> = {
  like: '👍',
  celebrate: '🎉',
  love: '❤️',
  laugh: '😄',
  fire: '🔥',
  eyes: '👀',
  confused: '😕',
  dislike: '👎',
};
const ICONS: Record<string, string> = { info: 'i', check: '✓', warning: '!', error: '×' };

/** "5 minutes ago", in the page's language. */
function ago(iso: string): string {
  const seconds = (Date.parse(iso) - Date.now()) / 1000;
  const format = new Intl.RelativeTimeFormat(document.documentElement.lang || undefined, { numeric: 'auto' });
  const units: [Intl.RelativeTimeFormatUnit, number][] = [
    ['day', 86400],
    ['hour', 3600],
    ['minute', 60],
  ];
  for (const [unit, size] of units) if (Math.abs(seconds) >= size) return format.format(Math.round(seconds / size), unit);
  return format.format(0, 'second');
}

/** The item, every API value as text; `data-focus` names each control so focus survives a redraw. */
function renderItem(item: BellItem, state: ListState, labels: Record<LabelName, string>, on: ItemHandlers): HTMLLIElement {
  const control = (key: string, attributes: Record<string, string | boolean>, label: string, run: () => void) => {
    const button = h('button', { type: 'button', 'data-focus': `${item.id}:${key}`, ...attributes }, label);
    button.addEventListener('click', run);
    return button;
  };
  const title = control('open', { class: 'title' }, item.title, () => on.activate(item, null));
  if (!item.read) title.append(h('span', { class: 'sr' }, ', unread'));
  const actions = item.actions.map((action, index) =>
    control(`a${index}`, { class: 'action' }, action.label, () => on.activate(item, action)),
  );
  const reactions = (item.reactions ?? []).map((name) =>
    control(`r-${name}`, { class: 'react', 'aria-label': name, 'aria-pressed': String(item.reaction === name) }, EMOJI[name] ?? name, () =>
      on.react(item, name),
    ),
  );
  const archiveLabel = state.archived ? labels['restore-label'] : labels['archive-label'];
  const archive = control('archive', { class: 'link archive', 'aria-label': `${archiveLabel}: ${item.title}` }, archiveLabel, () =>
    on.archive(item),
  );
  return h(
    'li',
    { class: item.read ? 'item' : 'item unread' },
    h('span', { class: 'icon', 'data-icon': item.icon, 'aria-hidden': 'true' }, ICONS[item.icon] ?? ICONS.info),
    h(
      'div',
      { class: 'content' },
      title,
      h('p', { class: 'body' }, item.body),
      h('time', { datetime: item.created_at }, ago(item.created_at)),
      actions.length > 0 && h('div', { class: 'row' }, ...actions),
      reactions.length > 0 && h('div', { class: 'row', role: 'group', 'aria-label': 'Reactions' }, ...reactions),
    ),
    archive,
  );
}

const isWhatsNew = (item: BellItem) => item.broadcast && item.category === 'changelog' && !item.pinned;

/**
 * The list's content: a message (loading, empty, error), or the inbox in sections: pinned on top,
 * then the person's own notifications, then the changelog's broadcasts under "What's new". The
 * archived view is one plain list.
 */
export function renderList(state: ListState, labels: Record<LabelName, string>, on: ItemHandlers): Node[] {
  const items = state.items ?? [];
  if (state.message || items.length === 0) {
    return [h('p', { class: 'empty' }, state.message ?? (state.items ? labels.empty : 'Loading…'))];
  }
  const list = (part: BellItem[]) => h('ul', {}, ...part.map((item) => renderItem(item, state, labels, on)));
  const section = (id: string, label: string, part: BellItem[]) =>
    part.length > 0 && h('section', { 'aria-labelledby': id }, h('h3', { id }, label), list(part));
  if (state.archived) return [list(items)];
  const pinned = items.filter((item) => item.pinned);
  const whatsNew = items.filter(isWhatsNew);
  const rest = items.filter((item) => !item.pinned && !isWhatsNew(item));
  return [
    section('pinned', labels['pinned-label'], pinned),
    rest.length > 0 && list(rest),
    section('whats-new', labels['whats-new-label'], whatsNew),
  ].filter((node): node is HTMLElement => !!node);
}
