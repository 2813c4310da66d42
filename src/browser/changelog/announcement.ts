import { h, safeHref } from '../shared/dom';
import { entryBody } from './entry-body';
import { entryButton, type EntryContext } from './entry-view';
import type { WidgetAnnouncement } from './types';

/**
 * The project's current announcement (spec: Announcement), shown once per person: a `modal` is a
 * modal <dialog> (focus moves into it and stays there, Escape closes it, focus returns after); a
 * `banner` sits at the top of the widget; a `toast` is fixed to the corner of the window. Banner
 * and toast show the title, the entry's button or a link to its page, and a Dismiss button; none
 * closes by itself, so nobody has to read against a clock.
 */
export function showAnnouncement(root: ShadowRoot, widget: HTMLElement, announcement: WidgetAnnouncement, context: EntryContext): void {
  // The API's `style` field names the presentation (not an element's inline style).
  // eslint-disable-next-line no-restricted-properties
  const { entry, style: presentation } = announcement;
  const page = safeHref(entry.public_url);
  const button = entryButton(entry, context) ?? (page && h('a', { class: 'cta', href: page }, 'Read more'));
  if (presentation === 'modal' && typeof HTMLDialogElement === 'function') {
    const close = h('button', { type: 'button', class: 'secondary', autofocus: true }, 'Close');
    const dialog = h(
      'dialog',
      { class: 'announcement', 'aria-labelledby': 'announcement-title' },
      h('p', { class: 'kicker' }, 'Announcement'),
      h('h2', { id: 'announcement-title' }, entry.title),
      h('div', { class: 'body' }, entryBody(entry.body_html)),
      h('div', { class: 'actions' }, button, close),
    );
    close.addEventListener('click', () => dialog.close());
    dialog.addEventListener('close', () => dialog.remove());
    root.append(dialog);
    dialog.showModal();
    return;
  }
  const dismiss = h('button', { type: 'button', class: 'secondary' }, 'Dismiss');
  const box = h(
    'div',
    { class: `announcement ${presentation === 'toast' ? 'toast' : 'banner'}`, role: 'region', 'aria-label': 'Announcement' },
    h('p', { class: 'kicker' }, 'Announcement'),
    h('p', { class: 'headline' }, entry.title),
    h('div', { class: 'actions' }, button, dismiss),
  );
  dismiss.addEventListener('click', () => {
    box.remove();
    // Focus would fall back to the page's start; it goes to the widget's heading instead.
    widget.querySelector('h2')?.focus();
  });
  if (presentation === 'toast') root.append(box);
  else widget.querySelector('header')?.after(box);
}
