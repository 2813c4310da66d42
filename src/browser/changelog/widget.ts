import { type ApiClient, ApiFailure, createApiClient } from '../shared/api';
import { h, safeHref } from '../shared/dom';
import { openShadow } from '../shared/element';
import type { LaunchScript } from '../shared/script';
import { themeStyles } from '../shared/theme';
import { showAnnouncement } from './announcement';
import styles from './changelog.css';
import { type EntryContext, entryView } from './entry-view';
import { TAG, type WidgetSettings, settingsOf } from './settings';
import { clientId, markAnnounced, previousVisit, recordVisit, wasAnnounced } from './storage';
import { subscribeForm } from './subscribe';
import type { WidgetEntry, WidgetPage, WidgetReactions } from './types';

const WIDGET_API = '/v1/changelog/widget';
// Per page, whatever the number of widgets on it: an announcement shows once, and an entry is
// reported new to this browser (an anonymous reader) once.
const announcedOnPage = new Set<string>();
const reportedFirstTime = new Set<string>();

/** Fires `service:<name>` on window (docs/browser-scripts.md: Embed the changelog); false when a listener cancelled it. */
function emit(name: string, detail: object): boolean {
  return window.dispatchEvent(new CustomEvent(`service:${name}`, { detail, cancelable: true }));
}

/** Calls `callback` once, the first time `target` is in the viewport (not if `signal` aborts first). */
function whenVisible(target: Element, signal: AbortSignal, callback: () => void): void {
  const observer = new IntersectionObserver((records) => {
    if (!records.some((record) => record.isIntersecting)) return;
    observer.disconnect();
    callback();
  });
  observer.observe(target);
  signal.addEventListener('abort', () => observer.disconnect());
}

/** One load of the list: what rendering it needs. */
interface View {
  root: ShadowRoot;
  section: HTMLElement;
  status: HTMLElement;
  api: ApiClient;
  /** `{user_id}` of a signed-in person (the hash goes as a header), else this browser's `{client_id}`. */
  reader: Record<string, string>;
  settings: WidgetSettings;
  signal: AbortSignal;
}

/**
 * <launch-changelog>: the project's newest entries, rendered inline where the element stands, in an
 * open shadow root (spec: Browser events, Widget endpoints). Pinned entries come first and count
 * toward `data-limit`. The list counts as shown (`POST …/seen`: views, anonymous first reads, a
 * signed-in person's seen state) when it first enters the viewport.
 */
export function changelogElement(script: LaunchScript): CustomElementConstructor {
  return class LaunchChangelog extends HTMLElement {
    private settings?: WidgetSettings;
    private stop?: AbortController;

    connectedCallback(): void {
      if (!this.stop || this.stop.signal.aborted) void this.refresh();
    }

    disconnectedCallback(): void {
      this.stop?.abort();
    }

    /** Loads the list again and renders it (the element's method for pages). */
    async refresh(): Promise<void> {
      this.stop?.abort();
      const stop = (this.stop = new AbortController());
      const settings = (this.settings ??= settingsOf(this, script));
      this.dataset.theme = settings.theme;
      const root = openShadow(this, themeStyles(settings.accent), styles);
      const status = h('p', { class: 'status', role: 'status' }, 'Loading updates…');
      const section = h(
        'section',
        { 'aria-labelledby': 'title' },
        h('header', {}, h('h2', { id: 'title', tabindex: -1 }, "What's new")),
        status,
      );
      root.replaceChildren(section);
      if (!settings.key) {
        status.textContent = 'The changelog is not set up on this page.';
        return;
      }
      const api = createApiClient({ base: script.api, key: settings.key, userHash: settings.userHash });
      const reader: Record<string, string> = settings.userId ? { user_id: settings.userId } : { client_id: clientId() };
      try {
        const { data } = await api.get<WidgetPage>(`${WIDGET_API}/entries`, { limit: settings.limit, ...reader }, stop.signal);
        if (!stop.signal.aborted) render({ root, section, status, api, reader, settings, signal: stop.signal }, data);
      } catch (error) {
        if (stop.signal.aborted) return;
        console.warn(`${TAG}: ${error instanceof ApiFailure ? `${error.code}: ${error.message}` : String(error)}`);
        status.textContent = 'Updates are unavailable right now.';
      }
    }
  };
}

function render(view: View, page: WidgetPage): void {
  const { section, status, settings } = view;
  const project = page.project.hosted_url;
  const signedIn = settings.userId !== null;
  const shown = [...page.pinned, ...page.entries].slice(0, settings.limit);
  // An anonymous browser's last visit before this page; null on its first (no badge then).
  const since = signedIn ? null : previousVisit(project);
  const newSince = (entry: WidgetEntry) => since !== null && Date.parse(entry.published_at) > since;
  const context = entryContext(view, page, (entry) => settings.showBadge && (signedIn ? entry.seen === false : newSince(entry)));

  const list = h('ol', { class: 'entries' }, ...shown.map((entry) => entryView(entry, context)));
  const hosted = safeHref(project);
  if (hosted) section.querySelector('header')?.append(h('a', { class: 'all', href: hosted }, 'View all'));
  status.textContent = shown.length > 0 ? '' : 'No updates yet.';
  status.hidden = shown.length > 0;
  section.append(list, footer(view.api, page));

  if (!signedIn) recordVisit(project, Math.max(Date.now(), ...shown.map((entry) => Date.parse(entry.published_at))));
  emit('changelog', { unseen_count: signedIn ? (page.unseen_count ?? 0) : shown.filter(newSince).length });
  announce(view, page, context);
  if (shown.length === 0) return;
  whenVisible(list, view.signal, () => {
    // First reads of an anonymous browser: entries published since its last visit, or all on its first.
    const firstTime = signedIn ? [] : shown.filter((entry) => (since === null || newSince(entry)) && !reportedFirstTime.has(entry.id));
    for (const entry of firstTime) reportedFirstTime.add(entry.id);
    const body = { ...view.reader, entry_ids: shown.map((entry) => entry.id), first_time_ids: firstTime.map((entry) => entry.id) };
    view.api.send('POST', `${WIDGET_API}/seen`, body).catch(() => undefined);
  });
}

/** What each entry needs: the reaction set and calls, the button's count and event, the New rule. */
function entryContext(view: View, page: WidgetPage, isNew: (entry: WidgetEntry) => boolean): EntryContext {
  const { api, reader } = view;
  const entryPath = (entry: WidgetEntry, action: string) => `${WIDGET_API}/entries/${encodeURIComponent(entry.id)}/${action}`;
  return {
    reactions: page.reactions,
    isNew,
    react: async (entry, reaction, on) => {
      const { data } = await api.send<WidgetReactions>(on ? 'POST' : 'DELETE', entryPath(entry, 'reactions'), { ...reader, reaction });
      emit('changelog-reaction', { id: entry.id, reaction: data.my_reaction });
      return data;
    },
    pressButton: (entry) => {
      api.send('POST', entryPath(entry, 'click'), reader, undefined, { keepalive: true }).catch(() => undefined);
      return emit('changelog-click', { id: entry.id, label: entry.cta?.label, url: entry.cta?.url });
    },
  };
}

/** The subscribe form where the project offers it, and the "Powered by" badge where its plan shows it. */
function footer(api: ApiClient, page: WidgetPage): HTMLElement {
  return h(
    'footer',
    {},
    page.project.subscribe.enabled && subscribeForm(api, (outcome) => emit('changelog-subscribe', { status: outcome })),
    page.project.show_badge && h('p', { class: 'powered' }, 'Powered by Launch Service'),
  );
}

/**
 * The announcement once per person (spec: Announcement): an anonymous browser keeps its `once_key`;
 * a signed-in person's `seen` tells the service, which then never announces it to them again.
 */
function announce(view: View, page: WidgetPage, context: EntryContext): void {
  const announcement = page.announcement;
  const project = page.project.hosted_url;
  const signedIn = view.settings.userId !== null;
  if (!announcement || announcedOnPage.has(announcement.once_key)) return;
  if (!signedIn && wasAnnounced(project, announcement.once_key)) return;
  announcedOnPage.add(announcement.once_key);
  if (!signedIn) markAnnounced(project, announcement.once_key);
  showAnnouncement(view.root, view.section, announcement, context);
  view.api.send('POST', `${WIDGET_API}/seen`, { ...view.reader, entry_ids: [announcement.entry.id] }).catch(() => undefined);
}
