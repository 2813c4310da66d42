/**
 * Source Map v3 `mappings` (ECMA-426): lines separated by `;`, segments by `,`, each segment a run of
 * base64 VLQ numbers whose first is the generated column, relative to the previous segment of the
 * same line. Writing text into a generated line moves the code after it; shifting the first segment
 * after that point moves every later one with it, since they are relative.
 */
const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

export function decodeSegment(segment: string): number[] {
  const values: number[] = [];
  let value = 0;
  let shift = 0;
  for (const char of segment) {
    const digit = BASE64.indexOf(char);
    if (digit < 0) throw new Error(`source map: "${char}" is not a base64 digit`);
    value += (digit & 31) * 2 ** shift;
    shift += 5;
    if (!(digit & 32)) {
      values.push(value % 2 ? -(value - 1) / 2 : value / 2);
      value = 0;
      shift = 0;
    }
  }
  return values;
}

export function encodeSegment(values: readonly number[]): string {
  let text = '';
  for (const number of values) {
    let rest = number < 0 ? -number * 2 + 1 : number * 2;
    do {
      const digit = rest % 32;
      rest = Math.floor(rest / 32);
      text += BASE64[rest > 0 ? digit | 32 : digit];
    } while (rest > 0);
  }
  return text;
}

/** `mappings` with every segment of generated line `line` (0-based) that starts after `column` moved by `delta` columns. */
export function shiftMappings(mappings: string, line: number, column: number, delta: number): string {
  const lines = mappings.split(';');
  const segments = lines[line]?.split(',') ?? [];
  let generated = 0;
  for (let index = 0; index < segments.length; index++) {
    const values = decodeSegment(segments[index]);
    generated += values[0];
    if (generated > column) {
      values[0] += delta;
      segments[index] = encodeSegment(values);
      lines[line] = segments.join(',');
      break;
    }
  }
  return lines.join(';');
}
