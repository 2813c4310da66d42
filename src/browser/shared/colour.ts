/** sRGB colour arithmetic for the WCAG contrast rules the themes follow (theme.ts). */
export type Rgb = readonly [number, number, number];

export const BLACK: Rgb = [0, 0, 0];
export const WHITE: Rgb = [255, 255, 255];

/** `#rgb` or `#rrggbb` (the only forms `hexColour` accepts from an attribute). */
export function parseHex(hex: string): Rgb {
  const digits = hex.length === 4 ? hex.replace(/[0-9a-f]/gi, '$&$&').slice(1) : hex.slice(1);
  return [0, 2, 4].map((start) => parseInt(digits.slice(start, start + 2), 16)) as unknown as Rgb;
}

export function toHex(colour: Rgb): string {
  return `#${colour.map((channel) => channel.toString(16).padStart(2, '0')).join('')}`;
}

/** Relative luminance (WCAG 2.x). */
function luminance(colour: Rgb): number {
  const [r, g, b] = colour.map((channel) => {
    const value = channel / 255;
    return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** The contrast ratio of two colours, 1 to 21; AA asks 4.5 for text and 3 for focus rings and icons. */
export function contrast(a: Rgb, b: Rgb): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (light + 0.05) / (dark + 0.05);
}

/**
 * `colour` as text on `background`: itself when it already reaches `ratio`, else mixed step by step
 * toward black (light backgrounds) or white (dark ones) until it does. A brand colour thus stays
 * recognisable while staying readable in both themes.
 */
export function legibleOn(colour: Rgb, background: Rgb, ratio = 4.5): Rgb {
  const target = luminance(background) > 0.18 ? BLACK : WHITE;
  let mixed = colour;
  for (let step = 0; step < 20 && contrast(mixed, background) < ratio; step++) {
    mixed = mixed.map((channel, index) => Math.round(channel + (target[index] - channel) * 0.2)) as unknown as Rgb;
  }
  return mixed;
}

/** Black or white, whichever reads better on `background` (at least 4.5:1 for any colour). */
export function textOn(background: Rgb): Rgb {
  return contrast(WHITE, background) >= contrast(BLACK, background) ? WHITE : BLACK;
}
