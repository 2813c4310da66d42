import { renderMarkdown } from '../../common/markdown/markdown-render';
import { BoundedMap } from '../../common/cache/bounded-map';

// Enough for every live entry of many projects; an entry is a few kilobytes of HTML.
const MAX_BODIES = 2_000;

/**
 * Sanitised HTML of entry bodies, kept per entry version (`updated_at`), because the widget is read
 * far more often than an entry changes and rendering plus sanitising is the costliest step of an
 * answer. The oldest-inserted eighth goes when full; an edited entry gets a new key.
 */
export class RenderedBodies {
  private readonly bodies = new BoundedMap<string, string>(MAX_BODIES);

  htmlOf(entryId: string, updatedAt: Date, markdown: string): string {
    const key = `${entryId}@${updatedAt.getTime()}`;
    let html = this.bodies.get(key);
    if (html === undefined) {
      html = renderMarkdown(markdown).html;
      this.bodies.set(key, html);
    }
    return html;
  }
}
