/**
 * Building the scripts' DOM without markup. Every value that came from the API goes in as text
 * (a Text node or an attribute value), never through innerHTML, so a title cannot become markup;
 * the lint configuration forbids innerHTML, outerHTML, insertAdjacentHTML and inline styles here.
 */

export type Child = Node | string | number | null | undefined | false;
export type Attributes = Record<string, string | number | boolean | null | undefined>;

/**
 * `<tag …attributes>children</tag>`. Strings and numbers become text nodes; null, undefined and
 * false are skipped (`cond && h(…)`). `true` sets an empty attribute, null/undefined/false none.
 * `style` and `on…` attributes are refused: inline styles and handlers break a strict CSP; use
 * classes from the element's stylesheet and addEventListener.
 */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Attributes = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (/^(on|style$)/i.test(name)) throw new Error(`h(): the ${name} attribute is not allowed`);
    if (value != null && value !== false) element.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children) {
    if (child != null && child !== false) element.append(typeof child === 'number' ? String(child) : child);
  }
  return element;
}

/** A link target from the API, only when it is http(s) (relative ones resolve against the page); else null. */
export function safeHref(value: string | null | undefined): string | null {
  if (!value) return null;
  try {
    const url = new URL(value, document.baseURI);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
}

/** Runs `callback` once the document has a body: now, or at DOMContentLoaded for a script in <head>. */
export function whenReady(callback: () => void): void {
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', callback, { once: true });
  else callback();
}

/**
 * Puts `element` into the first element matching `selector` (`data-target`), or at the end of
 * <body> when there is no selector or it matches nothing (with a console warning).
 */
export function mount(element: HTMLElement, selector: string | null): void {
  let target: Element | null = null;
  try {
    target = selector ? document.querySelector(selector) : null;
  } catch {
    // an invalid selector: reported below like one that matches nothing
  }
  if (selector && !target) console.warn(`${element.localName}: data-target "${selector}" matches nothing; using <body>.`);
  (target ?? document.body).append(element);
}
