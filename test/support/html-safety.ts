import { DomUtils, parseDocument } from 'htmlparser2';
import type { Element } from 'domhandler';

const DANGEROUS_URL = /^\s*(javascript|data|vbscript|file):/i;

/**
 * What in a piece of HTML could run script or load a dangerous address, found by parsing it as a
 * browser would (not by searching the text: escaped text such as `&lt;script&gt;` is harmless).
 * `allowedScripts` counts the page's own inline scripts.
 */
export function unsafeMarkup(html: string, allowedScripts = 0): string[] {
  const document = parseDocument(html, { decodeEntities: true, lowerCaseAttributeNames: true });
  const problems: string[] = [];
  const elements = DomUtils.findAll(() => true, document.children) as Element[];
  const scripts = elements.filter((element) => element.name === 'script');
  if (scripts.length > allowedScripts) problems.push(`${scripts.length} <script> elements`);
  for (const element of elements) {
    for (const [name, value] of Object.entries(element.attribs)) {
      if (name.startsWith('on')) problems.push(`<${element.name} ${name}>`);
      // The pages' empty icon (`data:,`) only keeps browsers from asking for /favicon.ico.
      const emptyIcon = element.name === 'link' && element.attribs.rel === 'icon' && value === 'data:,';
      if (['href', 'src', 'action', 'formaction', 'xlink:href', 'srcset'].includes(name) && DANGEROUS_URL.test(value) && !emptyIcon) {
        problems.push(`<${element.name} ${name}="${value}">`);
      }
    }
    if (['iframe', 'object', 'embed', 'svg', 'math', 'base'].includes(element.name)) problems.push(`<${element.name}>`);
  }
  return problems;
}

/** Markdown bodies that try every known way to smuggle script or data URLs past the write checks. */
export const UNSAFE_MARKDOWN = [
  '[click me](javascript:alert(1)) and [upper](JAVASCRIPT:alert(2)) and [spaced]( javascript:alert(3))',
  '![pixel](data:image/png;base64,iVBORw0KGgo=) and [file](data:text/html;base64,PHNjcmlwdD4=)',
  '<script>alert(4)</script>',
  '<img src=x onerror=alert(5)>',
  '[reference link][evil]\n\n[evil]: javascript:alert(6)',
  '![reference image][pic]\n\n[pic]: data:image/svg+xml;base64,PHN2Zz4=',
  '<a href="javascript:alert(7)">raw link</a> [vb](vbscript:msgbox(8)) [f](file:///etc/passwd)',
  '<iframe src="https://evil.example"></iframe><svg onload=alert(9)>',
].join('\n\n');
