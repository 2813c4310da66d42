/**
 * Custom elements with an open shadow root styled through constructed stylesheets
 * (adoptedStyleSheets): no <style> element and no style attribute, so a host page whose CSP has no
 * 'unsafe-inline' (or no style-src at all) shows them unchanged, and the page's CSS stays out.
 */

// Equal CSS texts share one stylesheet, across elements and re-renders.
const sheets = new Map<string, CSSStyleSheet>();

/** Sets the stylesheets of a shadow root, in order (later ones win): usually themeStyles(accent) then the component's CSS. */
export function adoptStyles(root: ShadowRoot, ...styles: string[]): void {
  root.adoptedStyleSheets = styles.map((text) => {
    let sheet = sheets.get(text);
    if (!sheet) {
      sheet = new CSSStyleSheet();
      sheet.replaceSync(text);
      sheets.set(text, sheet);
    }
    return sheet;
  });
}

/** The element's open shadow root (attached on first call) with `styles` adopted. */
export function openShadow(host: HTMLElement, ...styles: string[]): ShadowRoot {
  const root = host.shadowRoot ?? host.attachShadow({ mode: 'open' });
  adoptStyles(root, ...styles);
  return root;
}

/** Defines the element unless the page already has it (the script included twice keeps the first). */
export function defineElement(name: string, element: CustomElementConstructor): void {
  if (!customElements.get(name)) customElements.define(name, element);
}
