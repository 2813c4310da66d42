/**
 * An entry's body as the service sends it (`body_html`): markdown rendered and sanitised on the
 * server (src/common/markdown/markdown-render.ts). It becomes DOM without parsing HTML into the
 * page: DOMParser makes an inert document (no script runs in it, nothing loads), and the widget
 * copies out of it only the elements and attributes markdown produces, each made anew with
 * createElement and setAttribute. The server's sanitiser is the first wall and this the second: even
 * an altered answer brings no script, handler, frame or inline style, no link but http(s), mailto
 * or relative, and no image but https (what the strict CSP's img-src allows). Table cell alignment
 * arrives as a style attribute, which a strict CSP refuses, so it becomes a class.
 */
const KEPT = /^(p|br|hr|blockquote|pre|code|em|strong|s|del|ul|ol|li|a|img|table|thead|tbody|tr|th|td)$/;
// Elements whose content is not text to show (the server never sends them; markup that is not markdown's).
const DROPPED = /^(script|style|template|iframe|object|embed|noscript|svg|math|select|textarea)$/;

/** The body as nodes of this document, ready to append. */
export function entryBody(html: string): DocumentFragment {
  // The parsed document lives under the page's CSP, which reports every style attribute it meets:
  // they are renamed inside tags before parsing (text holds no tags: its "<" arrive as entities).
  const renamed = html.replace(/<[^>]*>/g, (tag) => tag.replace(/\sstyle\s*=/gi, ' data-css='));
  const fragment = document.createDocumentFragment();
  copyChildren(new DOMParser().parseFromString(renamed, 'text/html').body, fragment);
  return fragment;
}

function copyChildren(from: Node, to: Node): void {
  for (const child of from.childNodes) {
    const copy = copyNode(child);
    if (copy) to.appendChild(copy);
  }
}

function copyNode(node: Node): Node | null {
  if (node.nodeType === Node.TEXT_NODE) return document.createTextNode(node.nodeValue ?? '');
  if (!(node instanceof Element) || DROPPED.test(node.localName)) return null;
  const heading = /^h([1-6])$/.exec(node.localName);
  if (!heading && !KEPT.test(node.localName)) {
    // Some other element: its content stays, the element goes.
    const content = document.createDocumentFragment();
    copyChildren(node, content);
    return content;
  }
  // Headings of a body sit under the entry's own title (h3).
  const element = document.createElement(heading ? `h${Math.min(6, Number(heading[1]) + 3)}` : node.localName);
  if (!copyAttributes(node, element)) return null;
  copyChildren(node, element);
  return element;
}

/** Sets the allowed attributes; false when the element must go (an image without an https source). */
function copyAttributes(from: Element, to: HTMLElement): boolean {
  const value = (name: string) => from.getAttribute(name);
  const title = value('title');
  if (title && (to.localName === 'a' || to.localName === 'img')) to.setAttribute('title', title);
  switch (to.localName) {
    case 'a': {
      const href = link(value('href'));
      if (href) {
        to.setAttribute('href', href);
        to.setAttribute('rel', 'nofollow noopener noreferrer');
        to.setAttribute('target', '_blank');
      }
      return true;
    }
    case 'img': {
      const src = link(value('src'));
      if (!src?.startsWith('https:')) return false;
      to.setAttribute('src', src);
      to.setAttribute('alt', value('alt') ?? '');
      to.setAttribute('loading', 'lazy');
      to.setAttribute('referrerpolicy', 'no-referrer');
      return true;
    }
    case 'ol': {
      const start = value('start');
      if (start && /^\d{1,6}$/.test(start)) to.setAttribute('start', start);
      return true;
    }
    case 'th':
    case 'td': {
      const align = /text-align:\s*(left|right|center)/.exec(value('data-css') ?? '');
      if (align) to.className = `align-${align[1]}`;
      return true;
    }
    case 'pre':
    case 'table':
      // They scroll sideways on a narrow screen: focusable, so a keyboard can scroll them too.
      to.tabIndex = 0;
      return true;
  }
  return true;
}

/** An http(s) or mailto address, relative ones resolved against the page; else null. */
function link(value: string | null): string | null {
  if (!value) return null;
  try {
    const url = new URL(value, document.baseURI);
    return /^(https?|mailto):$/.test(url.protocol) ? url.href : null;
  } catch {
    return null;
  }
}
