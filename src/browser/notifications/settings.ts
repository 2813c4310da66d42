import { type Parse, hexColour, integer, oneOf, text } from '../shared/attributes';
import type { LaunchScript } from '../shared/script';
import { DEFAULT_ACCENT } from '../shared/theme';

/** A category tab: the API's category name and the label the page gives it. */
export interface Category {
  name: string;
  label: string;
}

export const POSITIONS = ['bottom-right', 'bottom-left', 'top-right', 'top-left'] as const;

/** A category as the API takes it (CATEGORY_PATTERN of the bell's query). */
const CATEGORY_NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/;

/**
 * `data-categories`: `name:Label` pairs, comma separated (`billing:Billing, team:Your team`). Any
 * malformed pair, or a name given twice, makes the whole value invalid: half a tab bar would
 * hide notifications the page meant to show.
 */
export const categoryList: Parse<Category[]> = (value) => {
  const list = value.split(',').map((pair) => {
    const colon = pair.indexOf(':');
    return { name: pair.slice(0, colon).trim(), label: pair.slice(colon + 1).trim() };
  });
  const names = new Set(list.map((category) => category.name));
  const valid = names.size === list.length && list.every(({ name, label }) => CATEGORY_NAME.test(name) && label);
  return valid ? list : undefined;
};

/** The texts of the bell, each a `data-…` attribute; always rendered as text. */
const LABELS = {
  title: 'Notifications',
  empty: 'You’re all caught up.',
  'mark-all-label': 'Mark all as read',
  'whats-new-label': 'What’s new',
  'pinned-label': 'Pinned',
  'archived-label': 'Archived',
  'archive-label': 'Archive',
  'restore-label': 'Restore',
};
export type LabelName = keyof typeof LABELS;

/**
 * The script tag's settings (spec: Browser events), each with its default; a bad value keeps the
 * default with one console warning (attributes.ts). Null when a required one is missing: each
 * missing one has logged its error and the bell renders nothing.
 */
export function readSettings({ read, api }: LaunchScript) {
  const key = read.required('data-key');
  const userId = read.required('data-user-id');
  const userHash = read.required('data-user-hash');
  if (!key || !userId || !userHash) return null;
  const labels = {} as Record<LabelName, string>;
  for (const [name, fallback] of Object.entries(LABELS)) labels[name as LabelName] = read(`data-${name}`, text, fallback);
  return {
    api,
    key,
    userId,
    userHash,
    target: read<string | null>('data-target', text, null),
    position: read('data-position', oneOf(...POSITIONS), 'bottom-right'),
    bell: read('data-bell', oneOf('show', 'none'), 'show'),
    accent: read('data-accent', hexColour, DEFAULT_ACCENT),
    theme: read('data-theme', oneOf('light', 'dark', 'auto'), 'light'),
    badge: read('data-badge', oneOf('count', 'dot'), 'count'),
    limit: read('data-limit', integer(1, 50), 20),
    categories: read<Category[]>('data-categories', categoryList, []),
    labels,
  };
}

export type Settings = NonNullable<ReturnType<typeof readSettings>>;
