import { legibleOn, parseHex, textOn, toHex } from './colour';

/** The spec's default accent (`data-accent`). */
export const DEFAULT_ACCENT = '#4f46e5';

export type ThemeName = 'light' | 'dark';
/** `data-theme`: `auto` follows the visitor's `prefers-color-scheme`. */
export type ThemeMode = ThemeName | 'auto';

/**
 * The colours of both themes. Text (`fg`) and secondary text (`muted`) reach WCAG AA (4.5:1) on
 * `bg` and on `surface`; `border` is decoration only. A test checks the ratios.
 */
export const PALETTES: Readonly<Record<ThemeName, Readonly<Record<'bg' | 'surface' | 'fg' | 'muted' | 'border', string>>>> = {
  light: { bg: '#ffffff', surface: '#f3f4f6', fg: '#111827', muted: '#4b5563', border: '#d1d5db' },
  dark: { bg: '#111827', surface: '#1f2937', fg: '#f9fafb', muted: '#9ca3af', border: '#4b5563' },
};

/**
 * The custom properties of one theme for an accent (a validated hex colour):
 * `--launch-accent` fills buttons and badges with `--launch-on-accent` text on it, and
 * `--launch-accent-text` is the accent as text or focus ring on `bg` and `surface`, darkened or
 * lightened until it reads at 4.5:1.
 */
export function themeTokens(name: ThemeName, accent: string): Record<string, string> {
  const palette = PALETTES[name];
  const colour = parseHex(accent);
  // Legible on the surface is legible on the background too: the surface is the closer of the two.
  const accentText = legibleOn(colour, parseHex(palette.surface));
  const tokens: Record<string, string> = { 'color-scheme': name };
  for (const [token, value] of Object.entries(palette)) tokens[`--launch-${token}`] = value;
  tokens['--launch-accent'] = toHex(colour);
  tokens['--launch-on-accent'] = toHex(textOn(colour));
  tokens['--launch-accent-text'] = toHex(accentText);
  return tokens;
}

const declarations = (tokens: Record<string, string>) =>
  Object.entries(tokens)
    .map(([name, value]) => `${name}:${value}`)
    .join(';');

/**
 * The theme as CSS for a shadow root: light tokens on `:host`, dark ones when the host has
 * `data-theme="dark"`, or `data-theme="auto"` and the visitor prefers dark. Components style
 * themselves with `var(--launch-…)` only, so one stylesheet serves both themes.
 */
export function themeStyles(accent: string = DEFAULT_ACCENT): string {
  const dark = declarations(themeTokens('dark', accent));
  return (
    // `all: initial` first: the host page's inherited styles stop at the host, the tokens apply after it.
    ':host{all:initial;display:block;font:14px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--launch-fg);' +
    `${declarations(themeTokens('light', accent))}}` +
    `:host([data-theme=dark]){${dark}}@media (prefers-color-scheme:dark){:host([data-theme=auto]){${dark}}}` +
    '[hidden]{display:none!important}'
  );
}
