import { attributeReader, boolean, hexColour, integer, oneOf, text } from '../shared/attributes';
import type { LaunchScript } from '../shared/script';
import { DEFAULT_ACCENT, type ThemeMode } from '../shared/theme';

export const TAG = 'launch-changelog';

export interface WidgetSettings {
  /** The publishable key; null when missing (the widget says it is not set up). */
  key: string | null;
  theme: ThemeMode;
  /** Entries shown, pinned ones included (spec: default 5, max 50). */
  limit: number;
  /** The New badge on entries published since the last visit. */
  showBadge: boolean;
  accent: string;
  /** The signed-in person, with the hash the site's server computed; both null for a visitor. */
  userId: string | null;
  userHash: string | null;
}

/**
 * The widget's settings (spec: Browser events, changelog widget): the `data-…` attributes of the
 * <launch-changelog> element, else those of the script tag, so two widgets on one page may differ.
 * A bad value keeps its default with one console warning (shared/attributes.ts).
 */
export function settingsOf(element: Element, script: LaunchScript): WidgetSettings {
  const read = attributeReader({ getAttribute: (name) => element.getAttribute(name) ?? script.tag?.getAttribute(name) ?? null }, TAG);
  const settings: WidgetSettings = {
    key: read.required('data-key'),
    theme: read('data-theme', oneOf('auto', 'light', 'dark'), 'auto'),
    limit: read('data-limit', integer(1, 50), 5),
    showBadge: read('data-show-badge', boolean, false),
    accent: read('data-accent', hexColour, DEFAULT_ACCENT),
    userId: read('data-user-id', text, null),
    userHash: read('data-user-hash', text, null),
  };
  if (!settings.userId !== !settings.userHash) {
    console.warn(`${TAG}: data-user-id and data-user-hash go together; showing what a visitor who is not signed in sees.`);
    settings.userId = settings.userHash = null;
  }
  return settings;
}
