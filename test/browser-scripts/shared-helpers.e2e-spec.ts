import { attributeReader, boolean, hexColour, httpUrl, integer, oneOf, text } from '../../src/browser/shared/attributes';
import { BLACK, WHITE, contrast, parseHex, toHex } from '../../src/browser/shared/colour';
import { parseRetryAfter } from '../../src/browser/shared/retry-after';
import { DEFAULT_ACCENT, PALETTES, type ThemeName, themeStyles, themeTokens } from '../../src/browser/shared/theme';

/** The pure helpers of src/browser/shared/ (the DOM ones run in the browser suite). */
describe('parseRetryAfter', () => {
  const now = Date.parse('2026-11-27T10:00:00Z');

  it('reads seconds and HTTP dates as milliseconds to wait, and nothing else', () => {
    expect(parseRetryAfter('30', now)).toBe(30_000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('Fri, 27 Nov 2026 10:01:30 GMT', now)).toBe(90_000);
    expect(parseRetryAfter('Fri, 27 Nov 2026 09:00:00 GMT', now)).toBe(0);
    for (const unreadable of [null, undefined, '', '-5', '1.5', 'soon']) expect(parseRetryAfter(unreadable, now)).toBeNull();
  });
});

describe('attributeReader', () => {
  const tag = (attributes: Record<string, string>) => ({ getAttribute: (name: string) => attributes[name] ?? null });
  let warn: jest.SpyInstance;
  let error: jest.SpyInstance;

  beforeEach(() => {
    warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    error = jest.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => jest.restoreAllMocks());

  it('answers the parsed value, or the default when the attribute is absent', () => {
    const read = attributeReader(tag({ 'data-limit': ' 12 ', 'data-theme': 'dark' }), 'launch-test');
    expect(read('data-limit', integer(1, 50), 20)).toBe(12);
    expect(read('data-theme', oneOf('light', 'dark', 'auto'), 'light')).toBe('dark');
    expect(read('data-badge', oneOf('count', 'dot'), 'count')).toBe('count');
    expect(attributeReader(null, 'launch-test')('data-limit', integer(1, 50), 20)).toBe(20);
    expect(warn).not.toHaveBeenCalled();
  });

  it('keeps the default for a bad value and warns once per attribute', () => {
    const read = attributeReader(tag({ 'data-limit': '51' }), 'launch-test');
    expect(read('data-limit', integer(1, 50), 20)).toBe(20);
    expect(read('data-limit', integer(1, 50), 20)).toBe(20);
    expect(warn.mock.calls).toEqual([['launch-test: data-limit "51" is not valid; using 20.']]);
  });

  it('reports a missing required setting once, as an error', () => {
    const read = attributeReader(tag({ 'data-key': '  ' }), 'launch-test');
    expect(read.required('data-key')).toBeNull();
    expect(read.required('data-key')).toBeNull();
    expect(attributeReader(tag({ 'data-key': ' svc_pub_x ' }), 'launch-test').required('data-key')).toBe('svc_pub_x');
    expect(error.mock.calls).toEqual([['launch-test: data-key is required on the script tag.']]);
  });

  it('parses only what each setting allows', () => {
    expect(['1', '50', '0', '51', '2.5', '1e1', '', ' 3'].map(integer(1, 50))).toEqual([
      1,
      50,
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
    expect(['', 'true', 'false', 'yes'].map(boolean)).toEqual([true, true, false, undefined]);
    expect(['Inbox', ''].map(text)).toEqual(['Inbox', undefined]);
    expect(['#4F46E5', '#abc', '#abcd', 'red', '#fff;background:url(x)', '#fff}*{display:none'].map(hexColour)).toEqual([
      '#4f46e5',
      '#abc',
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
    expect(
      ['https://api.example.com/', 'http://localhost:3000/base/', 'javascript:alert(1)', 'data:,x', '/relative', 'nope'].map(httpUrl),
    ).toEqual(['https://api.example.com', 'http://localhost:3000/base', undefined, undefined, undefined, undefined]);
  });
});

describe('theme', () => {
  const THEMES: ThemeName[] = ['light', 'dark'];
  const hex = (value: string) => parseHex(value);
  // Every 51st value per channel: 216 accents from black to white, plus the default.
  const steps = [0, 51, 102, 153, 204, 255];
  const accents = [DEFAULT_ACCENT, ...steps.flatMap((r) => steps.flatMap((g) => steps.map((b) => toHex([r, g, b]))))];

  it('gives text and secondary text at least 4.5:1 on the background and the surface of both themes', () => {
    for (const name of THEMES) {
      const { bg, surface, fg, muted } = PALETTES[name];
      for (const text of [fg, muted]) for (const back of [bg, surface]) expect(contrast(hex(text), hex(back))).toBeGreaterThanOrEqual(4.5);
    }
  });

  it('turns any accent into readable accent text and a readable colour on the accent, in both themes', () => {
    for (const accent of accents) {
      for (const name of THEMES) {
        const tokens = themeTokens(name, accent);
        expect(tokens['--launch-accent']).toBe(toHex(hex(accent)));
        for (const back of [PALETTES[name].bg, PALETTES[name].surface]) {
          expect(contrast(hex(tokens['--launch-accent-text']), hex(back))).toBeGreaterThanOrEqual(4.5);
        }
        expect(contrast(hex(tokens['--launch-on-accent']), hex(accent))).toBeGreaterThanOrEqual(4.5);
      }
    }
    // A readable accent is kept as it is.
    expect(themeTokens('light', DEFAULT_ACCENT)['--launch-accent-text']).toBe(DEFAULT_ACCENT);
    expect(toHex(WHITE)).toBe('#ffffff');
    expect(toHex(BLACK)).toBe('#000000');
  });

  it('writes the light tokens on :host, and the dark ones for data-theme dark, or auto when the visitor prefers dark', () => {
    const css = themeStyles('#0af');
    expect(css.startsWith(':host{all:initial;')).toBe(true);
    expect(css).toContain('--launch-bg:#ffffff');
    expect(css).toContain(':host([data-theme=dark]){color-scheme:dark;--launch-bg:#111827');
    expect(css).toContain('@media (prefers-color-scheme:dark){:host([data-theme=auto]){color-scheme:dark;');
    expect(css).toContain('--launch-accent:#00aaff');
  });
});
