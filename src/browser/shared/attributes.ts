/**
 * Reading a script's settings from its `<script data-…>` attributes. A bad value never breaks the
 * host page: the setting keeps its default and the console says so once per attribute.
 */

/** What the settings are read from: the script's own tag (an Element, or anything with getAttribute). */
export interface AttributeSource {
  getAttribute(name: string): string | null;
}

/** Turns an attribute's trimmed text into a value, or undefined when the text is not acceptable. */
export type Parse<T> = (text: string) => T | undefined;

export interface AttributeReader {
  /** The parsed value of `name`; `fallback` when it is absent, or invalid (with one console warning). */
  <T>(name: string, parse: Parse<T>, fallback: T): T;
  /** A setting the script cannot work without: its non-empty text, or null with one console error. */
  required(name: string): string | null;
}

/** Reads settings from `source`; `label` names the script in console messages (`launch-notifications`). */
export function attributeReader(source: AttributeSource | null, label: string): AttributeReader {
  const reported = new Set<string>();
  const report = (name: string, problem: string, log: (message: string) => void) => {
    if (reported.has(name)) return;
    reported.add(name);
    log(`${label}: ${name} ${problem}`);
  };
  const read = <T>(name: string, parse: Parse<T>, fallback: T): T => {
    const text = source?.getAttribute(name);
    if (text == null) return fallback;
    const value = parse(text.trim());
    if (value !== undefined) return value;
    report(name, `"${text}" is not valid; using ${JSON.stringify(fallback)}.`, console.warn);
    return fallback;
  };
  read.required = (name: string): string | null => {
    const text = source?.getAttribute(name)?.trim();
    if (text) return text;
    report(name, 'is required on the script tag.', console.error);
    return null;
  };
  return read;
}

/** One of the listed words. */
export const oneOf =
  <T extends string>(...values: readonly T[]): Parse<T> =>
  (text) =>
    (values as readonly string[]).includes(text) ? (text as T) : undefined;

/** A whole number from `min` to `max`. */
export const integer =
  (min: number, max: number): Parse<number> =>
  (text) => {
    const value = Number(text);
    return /^-?\d+$/.test(text) && value >= min && value <= max ? value : undefined;
  };

/** `true` or `false`; a bare attribute (`data-show-badge`) is true. */
export const boolean: Parse<boolean> = (text) => (text === '' || text === 'true' ? true : text === 'false' ? false : undefined);

/** Any non-empty text (labels and titles, always rendered as text). */
export const text: Parse<string> = (value) => value || undefined;

/** `#rgb` or `#rrggbb`: the only colours allowed into a stylesheet, so an attribute cannot inject CSS. */
export const hexColour: Parse<string> = (value) => (/^#([0-9a-f]{3}){1,2}$/i.test(value) ? value.toLowerCase() : undefined);

/** An absolute http(s) URL, without a trailing slash (`data-api`). */
export const httpUrl: Parse<string> = (value) => {
  try {
    const url = new URL(value);
    return /^https?:$/.test(url.protocol) ? url.href.replace(/\/+$/, '') : undefined;
  } catch {
    return undefined;
  }
};
