import { type ApiClient, ApiFailure, type Query, createApiClient } from '../shared/api';
import { safeHref } from '../shared/dom';
import { openShadow } from '../shared/element';
import { themeStyles } from '../shared/theme';
import { type Frame, buildFrame } from './frame';
import { type Action, type BellItem, type ItemHandlers, type ListState, renderList } from './items';
import styles from './notifications.css';
import { Poller, hashRefused } from './poller';
import type { Settings } from './settings';

/** How long a click waits for the click to be recorded before it leaves the page. */
const CLICK_WAIT_MS = 1500;
const GAP = 8;

// One console error per page however many bells and calls see the refused hash.
let hashErrorLogged = false;

/**
 * `<launch-notifications>`: the bell button with its unread badge, and the panel. Settings come
 * from the script tag (`LaunchNotifications.settings`). Opening the panel loads the inbox and marks
 * nothing read: the API's only per-person states are read, clicked and archived, and a glance is
 * none of them. Choosing an item or one of its buttons records a click (which also reads it).
 */
export class LaunchNotifications extends HTMLElement {
  static settings: Settings;

  private frame!: Frame;
  private api!: ApiClient;
  private poller!: Poller;
  /** The panel's place, computed on open: one constructed sheet, so no inline style is needed. */
  private readonly place = new CSSStyleSheet();
  private state: ListState = { items: null, message: null, archived: false };
  private category = '';
  private count: number | null = null;
  private anchor: Element | null = null;
  private returnTo: Element | null = null;
  private loads = 0;
  private destroyed = false;
  /** 403 USER_HASH_INVALID: the hash stays wrong until the page changes, so nothing asks again. */
  private refusedHash = false;

  connectedCallback(): void {
    if (this.destroyed) return;
    if (!this.frame) this.build();
    this.poller.start();
  }

  disconnectedCallback(): void {
    this.poller?.stop();
    this.close();
  }

  /** Opens the panel, next to `anchor` when given (with `data-bell="none"`, the page's own button). */
  open(anchor?: Element | null): void {
    if (this.destroyed || !this.isConnected) return;
    const { button, panel } = this.frame;
    this.anchor = anchor instanceof Element ? anchor : null;
    const active = this.shadowRoot?.activeElement ?? document.activeElement;
    if (panel.hidden) this.returnTo = this.anchor ?? (button.hidden ? active : button);
    panel.hidden = false;
    button.setAttribute('aria-expanded', 'true');
    this.position();
    for (const [target, type] of this.listeners) target.addEventListener(type, this.onPageEvent, true);
    panel.focus();
    void this.load();
  }

  close(): void {
    if (!this.frame || this.frame.panel.hidden) return;
    const { button, panel } = this.frame;
    const focusInside = panel.contains(this.shadowRoot!.activeElement);
    panel.hidden = true;
    button.setAttribute('aria-expanded', 'false');
    for (const [target, type] of this.listeners) target.removeEventListener(type, this.onPageEvent, true);
    if (focusInside && this.returnTo instanceof HTMLElement) this.returnTo.focus();
  }

  toggle(anchor?: Element | null): void {
    if (this.frame?.panel.hidden === false) this.close();
    else this.open(anchor);
  }

  /** Asks for the count now (and reloads the open panel's list). */
  refresh(): void {
    if (this.destroyed || !this.frame) return;
    this.poller.poll();
    if (!this.frame.panel.hidden) void this.load();
  }

  /** Stops polling, removes the bell from the page and forgets `window.launchNotifications`. */
  destroy(): void {
    this.close();
    this.destroyed = true;
    this.poller?.stop();
    this.remove();
    if (window.launchNotifications === this) delete window.launchNotifications;
  }

  private get listeners(): [EventTarget, string][] {
    return [
      [document, 'pointerdown'],
      [window, 'resize'],
      [window, 'scroll'],
    ];
  }

  private build(): void {
    const { settings } = LaunchNotifications;
    this.dataset.theme = settings.theme;
    this.api = createApiClient({ base: settings.api, key: settings.key, userHash: settings.userHash });
    this.frame = buildFrame(settings);
    const root = openShadow(this, themeStyles(settings.accent), styles);
    root.adoptedStyleSheets = [...root.adoptedStyleSheets, this.place];
    root.append(this.frame.button, this.frame.panel);
    this.poller = new Poller({
      fetch: async () => {
        const { data, meta } = await this.api.get<{ unread_count: number }>('/v1/notifications/unread/count', { user_id: settings.userId });
        return { count: data.unread_count, intervalSeconds: meta.poll_interval_seconds };
      },
      onCount: (count) => {
        if (this.setCount(count) && !this.frame.panel.hidden) void this.load();
      },
      onRefused: (failure) => this.refused(failure),
    });
    this.wire();
    this.setCount(null);
  }

  private wire(): void {
    const { button, markAll, archived, tabs } = this.frame;
    button.addEventListener('click', () => this.toggle());
    markAll.addEventListener('click', () => void this.markAllRead());
    archived.addEventListener('click', () => {
      this.state.archived = !this.state.archived;
      archived.setAttribute('aria-pressed', String(this.state.archived));
      markAll.hidden = this.state.archived;
      this.reload();
    });
    for (const tab of tabs) tab.addEventListener('click', () => this.selectTab(tab));
    this.shadowRoot!.addEventListener('keydown', (event) => this.onKey(event as KeyboardEvent));
  }

  private onKey(event: KeyboardEvent): void {
    const { tabs, panel } = this.frame;
    if (event.key === 'Escape' && !panel.hidden) {
      event.stopPropagation();
      panel.focus();
      this.close();
      return;
    }
    const index = tabs.indexOf(event.target as HTMLButtonElement);
    const moves: Record<string, number> = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: tabs.length - 1 };
    if (index < 0 || !(event.key in moves)) return;
    event.preventDefault();
    const next = tabs[(moves[event.key] + tabs.length) % tabs.length];
    next.focus();
    this.selectTab(next);
  }

  private selectTab(selected: HTMLButtonElement): void {
    for (const tab of this.frame.tabs) {
      tab.setAttribute('aria-selected', String(tab === selected));
      tab.tabIndex = tab === selected ? 0 : -1;
    }
    this.frame.list.setAttribute('aria-labelledby', selected.id);
    this.category = selected.dataset.category ?? '';
    this.reload();
  }

  private readonly onPageEvent = (event: Event): void => {
    if (event.type !== 'pointerdown') return this.position();
    const path = event.composedPath();
    if (!path.includes(this) && !(this.anchor && path.includes(this.anchor))) this.close();
  };

  /** Below the anchor when there is more room below, else above; inside the viewport, 8 px from its edges. */
  private position(): void {
    const anchor = this.anchor ?? (this.frame.button.hidden ? this : this.frame.button);
    const rect = anchor.getBoundingClientRect();
    const viewWidth = document.documentElement.clientWidth;
    const viewHeight = window.innerHeight;
    const width = Math.min(380, viewWidth - 2 * GAP);
    const start = rect.right > viewWidth / 2 ? rect.right - width : rect.left;
    const left = Math.round(Math.max(GAP, Math.min(start, viewWidth - width - GAP)));
    const below = viewHeight - rect.bottom >= rect.top;
    const vertical = below
      ? `top:${Math.round(rect.bottom + GAP)}px;max-height:${Math.round(Math.min(560, viewHeight - rect.bottom - 2 * GAP))}px`
      : `bottom:${Math.round(viewHeight - rect.top + GAP)}px;max-height:${Math.round(Math.min(560, rect.top - 2 * GAP))}px`;
    this.place.replaceSync(`.panel{left:${left}px;width:${width}px;${vertical}}`);
  }

  /** The badge, the button's name and the `service:notifications` event; true when the count changed. */
  private setCount(count: unknown): boolean {
    if (count !== null && typeof count !== 'number') return false;
    const { button, badge } = this.frame;
    const { title } = LaunchNotifications.settings.labels;
    const changed = count !== this.count;
    this.count = count;
    const unread = count ?? 0;
    button.setAttribute('aria-label', unread > 0 ? `${title}, ${unread} unread` : title);
    badge.hidden = unread === 0;
    badge.textContent = badge.classList.contains('dot') ? '' : unread > 99 ? '99+' : String(unread);
    if (changed && count !== null) window.dispatchEvent(new CustomEvent('service:notifications', { detail: { unread_count: count } }));
    return changed;
  }

  private reload(): void {
    this.state.items = null;
    this.render();
    void this.load();
  }

  /** The inbox for the open view: its tab's category, or the archived ones. */
  private async load(): Promise<void> {
    const { settings } = LaunchNotifications;
    const load = ++this.loads;
    const query: Query = { user_id: settings.userId, limit: settings.limit, category: this.category || null };
    if (this.state.archived) query.archived = 'only';
    try {
      if (this.refusedHash) throw new ApiFailure(403, 'USER_HASH_INVALID', '');
      const { data, meta } = await this.api.get<BellItem[]>('/v1/notifications/inbox', query);
      if (load !== this.loads) return;
      this.state.items = data;
      this.state.message = null;
      this.setCount(meta.unread_count);
    } catch (error) {
      if (load !== this.loads) return;
      this.state.message = this.problem(error);
    }
    this.render();
  }

  /** Redraws the list, keeping focus on the same control (or the next item's title when it left). */
  private render(): void {
    const { list, panel } = this.frame;
    const root = this.shadowRoot!;
    const focused = list.contains(root.activeElement) ? (root.activeElement as HTMLElement) : null;
    const titles = [...list.querySelectorAll<HTMLElement>('.title')];
    const at = focused ? titles.findIndex((title) => title.closest('li') === focused.closest('li')) : -1;
    list.replaceChildren(...renderList(this.state, LaunchNotifications.settings.labels, this.handlers));
    if (!focused) return;
    const titlesNow = list.querySelectorAll<HTMLElement>('.title');
    const same = [...list.querySelectorAll<HTMLElement>('[data-focus]')].find((control) => control.dataset.focus === focused.dataset.focus);
    (same ?? titlesNow[Math.min(at, titlesNow.length - 1)] ?? panel).focus();
  }

  private readonly handlers: ItemHandlers = {
    activate: (item, action) => this.activate(item, action),
    archive: (item) => {
      this.state.items = this.state.items?.filter((other) => other !== item) ?? null;
      this.render();
      void this.send('PATCH', `${item.id}/archive`, { archived: !this.state.archived });
    },
    react: (item, name) => {
      const again = item.reaction === name;
      item.reaction = again ? null : name;
      item.read ||= !again;
      this.render();
      if (again) void this.send('DELETE', `${item.id}/reactions`, undefined, true);
      else void this.send('POST', `${item.id}/reactions`, { reaction: name });
    },
  };

  /**
   * The `service:notification-click` event (cancelable), the click recorded (also read), then the
   * button's or the notification's URL unless the page called preventDefault(); http(s) only.
   */
  private activate(item: BellItem, action: Action | null): void {
    const detail = {
      id: item.id,
      category: item.category,
      action: action ? { label: action.label, url: action.url } : null,
      data: item.data,
    };
    const go = window.dispatchEvent(new CustomEvent('service:notification-click', { detail, cancelable: true }));
    item.read = item.clicked = true;
    this.render();
    const recorded = this.send('PATCH', `${item.id}/click`, {});
    const href = safeHref(action ? action.url : item.action_url);
    if (!href) return;
    this.close();
    if (go) void Promise.race([recorded, new Promise((done) => setTimeout(done, CLICK_WAIT_MS))]).then(() => location.assign(href));
  }

  private async markAllRead(): Promise<void> {
    for (const item of this.state.items ?? []) item.read = true;
    this.render();
    const answer = await this.send<{ unread_count: number }>('PATCH', 'read-all', { category: this.category || undefined });
    if (answer) this.setCount(answer.unread_count);
  }

  /** A bell write for this person; the answer's `meta.unread_count` updates the badge. Failures reload the list. */
  private async send<T>(method: 'PATCH' | 'POST' | 'DELETE', path: string, body?: object, inQuery = false): Promise<T | null> {
    const { userId } = LaunchNotifications.settings;
    this.frame.notice.textContent = '';
    try {
      if (this.refusedHash) throw new ApiFailure(403, 'USER_HASH_INVALID', '');
      const answer = await this.api.send<T>(method, `/v1/notifications/${path}`, inQuery ? undefined : { ...body, user_id: userId }, {
        user_id: inQuery ? userId : null,
      });
      this.setCount(answer.meta.unread_count);
      return answer.data;
    } catch (error) {
      this.frame.notice.textContent = this.problem(error);
      if (!this.frame.panel.hidden) void this.load();
      return null;
    }
  }

  private problem(error: unknown): string {
    if (hashRefused(error)) this.refused(error);
    if (error instanceof ApiFailure && error.status === 429) return 'Too many requests. Try again in a minute.';
    return 'Notifications are unavailable right now. Try again later.';
  }

  private refused(failure: ApiFailure): void {
    this.refusedHash = true;
    this.poller.refuse();
    if (hashErrorLogged) return;
    hashErrorLogged = true;
    console.error(
      `launch-notifications: USER_HASH_INVALID: ${failure.message} The bell stops asking until the page loads again. Compute data-user-hash on your server: the HMAC-SHA256 of data-user-id keyed with the project's signing secret, as lowercase hex.`,
    );
  }
}

declare global {
  interface Window {
    launchNotifications?: LaunchNotifications;
  }
}
