import { renderMarkdown } from '../../common/markdown/markdown-render';

// Enough for every live entry of many projects; an entry is a few kilobytes of HTML.
const MAX_BODIES = 2_000;

/**
 * Sanitised HTML of entry bodies, kept per entry version (`updated_at`), because the widget is read
 * far more often than an entry changes and rendering plus sanitising is the costliest step of an
 * answer. Oldest-inserted first out when full; an edited entry gets a new key.
 */
export class RenderedBodies {
  private readonly bodies = new Map<string, string>();

  htmlOf(entryId: string, updatedAt: Date, markdown: string): string {
    const key = `${entryId}@${updatedAt.getTime()}`;
    let html = this.bodies.get(key);
    if (html === undefined) {
      html = renderMarkdown(markdown).html;
      if (this.bodies.size >= MAX_BODIES) this.bodies.delete(this.bodies.keys().next().value as string);
      this.bodies.set(key, html);
    }
    return html;
  }
}
