/**
 * HTML that has been sanitized and may be written into a page as is. Only the markdown renderer
 * makes one; the page templates' escape function passes a SafeHtml through and escapes everything
 * else, so `{{body_html}}` stays an ordinary, escaping Mustache tag.
 */
export class SafeHtml {
  private constructor(readonly html: string) {}

  /** For the sanitizer's output only. */
  static fromSanitized(html: string): SafeHtml {
    return new SafeHtml(html);
  }

  toString(): string {
    return this.html;
  }
}
