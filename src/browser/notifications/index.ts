import { ApiFailure, createApiClient } from '../shared/api';
import { hexColour, oneOf, text } from '../shared/attributes';
import { h, mount, whenReady } from '../shared/dom';
import { defineElement, openShadow } from '../shared/element';
import { launchScript } from '../shared/script';
import { DEFAULT_ACCENT, themeStyles } from '../shared/theme';
import styles from './notifications.css';

/**
 * The notification bell, `{cdn_url}/v1/notifications.js` (spec: Browser events). This first
 * version proves the path end to end: it shows the end user's unread count, read once.
 */
const TAG = 'launch-notifications';
const script = launchScript(TAG);
const settings = {
  key: script.read.required('data-key'),
  userId: script.read.required('data-user-id'),
  userHash: script.read.required('data-user-hash'),
  theme: script.read('data-theme', oneOf('light', 'dark', 'auto'), 'light'),
  accent: script.read('data-accent', hexColour, DEFAULT_ACCENT),
  target: script.read('data-target', text, null),
};

class LaunchNotifications extends HTMLElement {
  connectedCallback(): void {
    if (this.shadowRoot) return;
    this.dataset.theme = settings.theme;
    const count = h('p', { class: 'count', role: 'status' }, 'Loading notifications…');
    openShadow(this, themeStyles(settings.accent), styles).append(h('section', { 'aria-label': 'Notifications' }, count));
    void this.showUnreadCount(count);
  }

  private async showUnreadCount(count: HTMLElement): Promise<void> {
    const { key, userId, userHash } = settings;
    if (!key || !userId || !userHash) {
      count.textContent = 'Notifications are not set up on this page.';
      return;
    }
    try {
      const api = createApiClient({ base: script.api, key, userHash });
      const { data } = await api.get<{ unread_count: number }>('/v1/notifications/unread/count', { user_id: userId });
      count.textContent = `${data.unread_count} unread`;
    } catch (error) {
      count.textContent = error instanceof ApiFailure ? error.message : 'Notifications are unavailable.';
    }
  }
}

defineElement(TAG, LaunchNotifications);
whenReady(() => {
  if (!document.querySelector(TAG)) mount(document.createElement(TAG), settings.target);
});
