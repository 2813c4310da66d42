import { ApiFailure, createApiClient } from '../shared/api';
import { hexColour, integer, oneOf, text } from '../shared/attributes';
import { h, mount, whenReady } from '../shared/dom';
import { defineElement, openShadow } from '../shared/element';
import { launchScript } from '../shared/script';
import { DEFAULT_ACCENT, themeStyles } from '../shared/theme';
import styles from './changelog.css';

/**
 * The changelog widget, `{cdn_url}/v1/changelog.js` (spec: Browser events). This first version
 * proves the path end to end: it lists the titles of the newest public entries.
 */
const TAG = 'launch-changelog';
const script = launchScript(TAG);
const settings = {
  key: script.read.required('data-key'),
  theme: script.read('data-theme', oneOf('light', 'dark', 'auto'), 'auto'),
  limit: script.read('data-limit', integer(1, 50), 5),
  accent: script.read('data-accent', hexColour, DEFAULT_ACCENT),
  target: script.read('data-target', text, null),
};

interface WidgetEntry {
  id: string;
  title: string;
}

class LaunchChangelog extends HTMLElement {
  connectedCallback(): void {
    if (this.shadowRoot) return;
    this.dataset.theme = settings.theme;
    const status = h('p', { class: 'status', role: 'status' }, 'Loading updates…');
    const list = h('ul', { hidden: true });
    const section = h('section', { 'aria-labelledby': 'title' }, h('h2', { id: 'title' }, "What's new"), status, list);
    openShadow(this, themeStyles(settings.accent), styles).append(section);
    void this.showEntries(status, list);
  }

  private async showEntries(status: HTMLElement, list: HTMLElement): Promise<void> {
    if (!settings.key) {
      status.textContent = 'The changelog is not set up on this page.';
      return;
    }
    try {
      const api = createApiClient({ base: script.api, key: settings.key });
      const { data } = await api.get<{ entries: WidgetEntry[] }>('/v1/changelog/widget/entries', { limit: settings.limit });
      list.append(...data.entries.map((entry) => h('li', {}, entry.title)));
      list.hidden = data.entries.length === 0;
      status.textContent = data.entries.length ? '' : 'No updates yet.';
      status.hidden = data.entries.length > 0;
    } catch (error) {
      status.textContent = error instanceof ApiFailure ? error.message : 'Updates are unavailable.';
    }
  }
}

defineElement(TAG, LaunchChangelog);
whenReady(() => {
  if (!document.querySelector(TAG)) mount(document.createElement(TAG), settings.target);
});
