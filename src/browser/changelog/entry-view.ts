import { h, safeHref } from '../shared/dom';
import { entryBody } from './entry-body';
import { reactionBar, type SendReaction } from './reactions';
import type { WidgetEntry } from './types';

const CATEGORIES: Record<string, string> = {
  feature: 'Feature',
  fix: 'Fix',
  improvement: 'Improvement',
  security: 'Security',
  breaking: 'Breaking change',
};

export interface EntryContext {
  /** The project's reaction set, in order (empty: reactions are off). */
  reactions: readonly string[];
  react: SendReaction;
  /** The entry's button was pressed; false when the page took over the navigation (event cancelled). */
  pressButton(entry: WidgetEntry): boolean;
  /** Whether to show the New badge on this entry. */
  isNew(entry: WidgetEntry): boolean;
}

let dates: Intl.DateTimeFormat | undefined;

/** `Nov 20, 2026` in the page's language (its `lang`), else the browser's. */
function formatDate(iso: string): string {
  if (!dates) {
    try {
      dates = new Intl.DateTimeFormat(document.documentElement.lang || undefined, { dateStyle: 'medium' });
    } catch {
      dates = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
    }
  }
  return dates.format(new Date(iso));
}

/** The entry's button: a link that counts the press before the browser follows it. */
export function entryButton(entry: WidgetEntry, context: EntryContext): HTMLElement | null {
  const href = entry.cta && safeHref(entry.cta.url);
  if (!entry.cta || !href) return null;
  const button = h('a', { class: 'cta', href }, entry.cta.label);
  button.addEventListener('click', (event) => {
    if (!context.pressButton(entry)) event.preventDefault();
  });
  return button;
}

/** One entry of the list: every value from the API as text, the body through entryBody(). */
export function entryView(entry: WidgetEntry, context: EntryContext): HTMLElement {
  const titleId = `entry-${entry.id}`;
  const page = safeHref(entry.public_url);
  const cover = safeHref(entry.cover_image_url);
  const labels = entry.labels.map((label) => h('li', { class: `label colour-${label.colour}` }, label.name));
  const button = entryButton(entry, context);
  const reactions = reactionBar(entry, context.reactions, context.react);
  return h(
    'li',
    { class: 'entry' },
    h(
      'article',
      { 'aria-labelledby': titleId },
      h(
        'p',
        { class: 'meta' },
        context.isNew(entry) && h('span', { class: 'new' }, 'New'),
        entry.pinned && h('span', { class: 'chip' }, 'Pinned'),
        h('span', { class: 'chip' }, CATEGORIES[entry.category] ?? entry.category),
        entry.version && h('span', { class: 'version' }, entry.version),
        h('time', { datetime: entry.published_at }, formatDate(entry.published_at)),
      ),
      h('h3', { id: titleId }, page ? h('a', { href: page }, entry.title) : entry.title),
      cover?.startsWith('https:') && h('img', { class: 'cover', src: cover, alt: '', loading: 'lazy', referrerpolicy: 'no-referrer' }),
      h('div', { class: 'body' }, entryBody(entry.body_html)),
      labels.length > 0 && h('ul', { class: 'labels', 'aria-label': 'Labels' }, ...labels),
      (button || reactions) && h('div', { class: 'actions' }, button, reactions),
    ),
  );
}
