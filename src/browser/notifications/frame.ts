import { h } from '../shared/dom';
import type { Settings } from './settings';

const SVG = 'http://www.w3.org/2000/svg';

/** The bell's outline icon, decorative (the button carries the name). */
function bellIcon(): SVGSVGElement {
  const svg = document.createElementNS(SVG, 'svg');
  for (const [name, value] of Object.entries({ viewBox: '0 0 24 24', 'aria-hidden': 'true', focusable: 'false' }))
    svg.setAttribute(name, value);
  for (const d of ['M18 8a6 6 0 0 0-12 0c0 7-3 9-3 9h18s-3-2-3-9', 'M13.7 21a2 2 0 0 1-3.4 0']) {
    const path = document.createElementNS(SVG, 'path');
    path.setAttribute('d', d);
    svg.append(path);
  }
  return svg;
}

/** The parts of the bell the element updates after building them once. */
export interface Frame {
  button: HTMLButtonElement;
  badge: HTMLSpanElement;
  panel: HTMLDivElement;
  markAll: HTMLButtonElement;
  archived: HTMLButtonElement;
  tabs: HTMLButtonElement[];
  list: HTMLDivElement;
  notice: HTMLParagraphElement;
}

/**
 * The bell button and its panel, a non-modal dialog: a header (title, mark all read, the archived
 * view), category tabs when `data-categories` names some ("All" first), and the list. The button is
 * hidden with `data-bell="none"` (the page opens the panel with `open(anchor)`).
 */
export function buildFrame(settings: Settings): Frame {
  const { labels, categories } = settings;
  const badge = h('span', { class: settings.badge === 'dot' ? 'badge dot' : 'badge', 'aria-hidden': 'true', hidden: true });
  const button = h('button', {
    type: 'button',
    class: 'bell',
    'aria-expanded': 'false',
    'aria-controls': 'panel',
    hidden: settings.bell === 'none',
  });
  button.append(bellIcon(), badge);
  const markAll = h('button', { type: 'button', class: 'link' }, labels['mark-all-label']);
  const archived = h('button', { type: 'button', class: 'link', 'aria-pressed': 'false' }, labels['archived-label']);
  const tabs = [{ name: '', label: 'All' }, ...categories].map(({ name, label }, index) =>
    h(
      'button',
      {
        type: 'button',
        role: 'tab',
        id: `tab-${index}`,
        'data-category': name,
        'aria-selected': String(index === 0),
        tabindex: index ? -1 : 0,
      },
      label,
    ),
  );
  const list = h('div', { class: 'list' });
  if (categories.length > 0) {
    list.setAttribute('role', 'tabpanel');
    list.setAttribute('aria-labelledby', 'tab-0');
  }
  const notice = h('p', { class: 'notice', role: 'status' });
  const panel = h(
    'div',
    { class: 'panel', id: 'panel', role: 'dialog', 'aria-labelledby': 'heading', tabindex: -1, hidden: true },
    h('header', {}, h('h2', { id: 'heading' }, labels.title), markAll, archived),
    categories.length > 0 && h('div', { role: 'tablist', 'aria-label': labels.title }, ...tabs),
    notice,
    list,
  );
  return { button, badge, panel, markAll, archived, tabs, list, notice };
}
