/**
 * Hostile input for the OpenAPI fuzz suite: values for path, query, header and JSON body fields,
 * chosen per field by a seeded generator, so every run sends the same requests.
 */

type Json = Record<string, unknown>;

/** A deterministic generator (mulberry32) seeded from a text, such as "GET /v1/feedback cursor". */
export class SeededChoice {
  private state: number;

  constructor(seed: string) {
    // FNV-1a of the seed text.
    let hash = 0x811c9dc5;
    for (let index = 0; index < seed.length; index += 1) hash = Math.imul(hash ^ seed.charCodeAt(index), 0x01000193);
    this.state = hash >>> 0;
  }

  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** `count` distinct items of `pool`, in the generator's order. */
  pick<T>(pool: readonly T[], count: number): T[] {
    const rest = [...pool];
    const chosen: T[] = [];
    while (chosen.length < count && rest.length > 0) chosen.push(rest.splice(Math.floor(this.next() * rest.length), 1)[0]);
    return chosen;
  }
}

const ULID = '01JD3Z4Q9X8V7T6S5R4Q3P2N1M';
const base64Json = (value: unknown) => Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');

/**
 * Text for a URL (path segment or query value), already percent-encoded: what a client can put on
 * the wire, including bytes that are not UTF-8 and encodings of NUL, controls and separators.
 */
export const HOSTILE_URL_TEXT: readonly string[] = [
  '%00',
  `ce_${ULID}%00`,
  'a%00b',
  '%01%1F%7F',
  '%0D%0ASet-Cookie:%20x=1',
  '%FF',
  '%C0%80',
  '%ED%A0%80',
  '%E2%80%AE%E2%80%8F',
  '%EF%BB%BF',
  '%F0%9F%98%80',
  '%25',
  '%',
  '%zz',
  '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
  '..%2F..%2F..%2Fetc%2Fpasswd',
  '..%5C..%5Cwindows',
  encodeURIComponent("' OR '1'='1' --"),
  encodeURIComponent("x'; DROP TABLE projects; --"),
  encodeURIComponent('<script>alert(1)</script>'),
  encodeURIComponent('${jndi:ldap://x}'),
  'x'.repeat(3000),
  encodeURIComponent(' '),
  '2147483647',
  '2147483648',
  '-2147483649',
  '9007199254740993',
  '1e309',
  '-1',
  '0',
  '1.5',
  'NaN',
  'Infinity',
  '0x10',
  'null',
  'true',
  '[]',
  '%7B%7D',
  `CE_${ULID.toLowerCase()}`,
  `prj_${ULID}`,
  `ce_${ULID}x`,
  `ce_${'0'.repeat(26)}`,
  `ce_${ULID.slice(0, 25)}I`,
  encodeURIComponent('"a\r\nb"@x.com'),
  encodeURIComponent('"a,b"@x.com'),
  encodeURIComponent('"<a>"@x.com'),
  encodeURIComponent('ada@example.com\r\nBcc: v@evil.test'),
  encodeURIComponent('http://xn--a.com'),
  encodeURIComponent('2026-02-31T00:00:00Z'),
  encodeURIComponent('+275760-09-13T00:00:00.000Z'),
  encodeURIComponent('-271821-04-20T00:00:00.000Z'),
];

/** Values for a cursor query parameter: well-formed base64 JSON holding values no column can hold. */
export const HOSTILE_CURSORS: readonly string[] = [
  base64Json({ position: 2 ** 31 }),
  base64Json({ position: 2 ** 31 - 1 }),
  base64Json({ position: 2 ** 53 - 1 }),
  base64Json({ position: 2 ** 63 }),
  base64Json({ id: `ce_${ULID}\u0000` }),
  base64Json({ id: 'x'.repeat(400) }),
  base64Json({ published: `+275760-09-13T00:00:00.000Z|ce_${ULID}` }),
  base64Json({ published: `-271821-04-20T00:00:00.000Z|ce_${ULID}` }),
  base64Json({ published: `0000-01-01T00:00:00.000Z|ce_${ULID}` }),
  base64Json({ published: `9999-12-31T23:59:59.999Z|ce_${ULID}` }),
  Buffer.from('{"position":1', 'utf8').toString('base64url'),
  Buffer.from([0xff, 0xfe, 0x00]).toString('base64url'),
].map(encodeURIComponent);

/** Header values Node will send (no controls but tab, Latin-1 only). */
export const HOSTILE_HEADER_TEXT: readonly string[] = [
  '',
  ' ',
  'x'.repeat(6000),
  '\t',
  "' OR '1'='1",
  '%00',
  'null',
  '\u00ff\u00fe',
  `prj_${ULID.toLowerCase()}`,
  `prj_${ULID}`,
  `ce_${ULID}`,
  't=99999999999999999999,v1=00',
  't=-1,v1=',
  't=1e308,v1=zz,v0=',
  'W/"x", *',
];

const HOSTILE_EMAILS = [
  '"a\r\nb"@example.com',
  '"a\r\nBcc: victim@evil.test"@example.com',
  '"a,b"@example.com',
  '"<a>"@example.com',
  '"a\u0001b"@example.com',
  '"a b"@example.com',
  'ada@example.com\r\nBcc: victim@evil.test',
  'ada@example.com, victim@evil.test',
  'Ada <ada@example.com>',
  '\u202eada@example.com',
];

const HOSTILE_URLS = [
  'http://xn--a.com/x',
  'https://[fe80::1%25eth0]/',
  'http://\u2488.com',
  'https://xn--i-7ia.com',
  'javascript:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  'file:///etc/passwd',
  '//evil.test/x',
  'https://app.example.com:99999/x',
  'http://127.0.0.1:22/',
  'https://user:pass@example.com/',
  'http://\u0000example.com',
];

const HOSTILE_DATES = [
  '2026-02-31T00:00:00Z',
  '+275760-09-13T00:00:00.000Z',
  '-271821-04-20T00:00:00.000Z',
  '0000-01-01T00:00:00Z',
  '9999-12-31T23:59:60Z',
  '2026-01-01T00:00:00+99:99',
  '1970-01-01T00:00:00Z',
];

/** Text for any JSON string field, including what a URL cannot carry (lone surrogates). */
const HOSTILE_STRINGS: readonly unknown[] = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\u0001\u001f\u007f\u0085',
  '\r\n',
  '\ud800',
  'a\udc00b',
  '\u202e\u200f\u2066',
  '\ufeff\ufffe\uffff',
  '\u2028\u2029',
  '😀'.repeat(3000),
  'x'.repeat(70_000),
  '../../etc/passwd',
  "' OR '1'='1' --",
  '<img src=x onerror=alert(1)>',
  '{{constructor.constructor("return process")()}}',
  '%00%FF',
  '2147483648',
  'NaN',
  `ce_${ULID}`,
  ...HOSTILE_EMAILS,
  ...HOSTILE_URLS,
  ...HOSTILE_DATES,
];

const HOSTILE_NUMBERS: readonly unknown[] = [
  2 ** 31 - 1,
  2 ** 31,
  -(2 ** 31) - 1,
  2 ** 53,
  2 ** 53 + 2,
  -1,
  0,
  -0,
  1.5,
  1e-7,
  1e308,
  '1',
  '1e999',
  'NaN',
];

const WRONG_TYPES: readonly unknown[] = [
  null,
  true,
  0,
  [],
  ['x'],
  [null],
  {},
  { $gt: '' },
  { a: { b: { c: { d: [1] } } } },
  [[['deep']]],
  Array.from({ length: 1001 }, (_, index) => `item-${index}`),
];

function schemaKind(schema: Json): string {
  if (Array.isArray(schema.enum)) return 'enum';
  if (schema.type === 'integer' || schema.type === 'number') return 'number';
  if (schema.type === 'string' && schema.format === 'email') return 'email';
  if (schema.type === 'string' && (schema.format === 'uri' || /url$/i.test(String(schema.title ?? '')))) return 'url';
  if (schema.type === 'string' && schema.format === 'date-time') return 'date';
  return String(schema.type ?? 'any');
}

/** Hostile JSON values for a body field with this schema (and name, which hints at URLs and emails). */
export function hostileJsonValues(schema: Json, name: string, choice: SeededChoice, count: number): unknown[] {
  const kind = schemaKind(schema);
  const byName = /url$/i.test(name) ? HOSTILE_URLS : /email/i.test(name) ? HOSTILE_EMAILS : [];
  const specific =
    kind === 'email'
      ? HOSTILE_EMAILS
      : kind === 'url'
        ? HOSTILE_URLS
        : kind === 'date'
          ? HOSTILE_DATES
          : kind === 'number'
            ? HOSTILE_NUMBERS
            : kind === 'array'
              ? [[...HOSTILE_STRINGS.slice(0, 3)], [{ nested: { deeper: ['\u0000'] } }], Array.from({ length: 5000 }, () => 'x')]
              : [];
  const own = choice.pick([...specific, ...byName], Math.ceil(count / 2));
  const general = choice.pick([...HOSTILE_STRINGS, ...HOSTILE_NUMBERS, ...WRONG_TYPES], count - own.length);
  return [...own, ...general];
}

/** Whole JSON bodies that are not objects, or objects no DTO expects. Sent as raw text. */
export const HOSTILE_RAW_BODIES: readonly string[] = [
  '[]',
  '"text"',
  'null',
  '1e999',
  '{"__proto__":{"polluted":true}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  '{"a\\u0000":1}',
  '{"\\ud800":1}',
  '{"x":1,"x":2}',
];
