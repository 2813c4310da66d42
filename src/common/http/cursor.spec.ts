import { ApiError } from '../errors/api-error';
import { type CursorKey, MAX_POSITION, cursorValue, decodeCursor, encodeCursor, publishedCursorValue, publishedKeyOf } from './cursor';

const ID_KEY: CursorKey = { field: 'id', prefix: 'fb' };
const POSITION_KEY: CursorKey = { field: 'position' };
const FEEDBACK_ID = 'fb_01JD3Z4Q9X8V7T6S5R4Q3P2N1M';
const PUBLISHED_KEY: CursorKey = { field: 'published', prefix: 'ce' };
const ENTRY_ID = 'ce_01JD3Z4Q9X8V7T6S5R4Q3P2N1M';

const raw = (value: unknown) => Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');

describe('encodeCursor and cursorValue', () => {
  it('round-trip an id and a position', () => {
    expect(cursorValue(encodeCursor(ID_KEY, FEEDBACK_ID), ID_KEY)).toBe(FEEDBACK_ID);
    expect(cursorValue(encodeCursor(POSITION_KEY, 42), POSITION_KEY)).toBe(42);
  });

  it('keeps the wire format: base64url JSON of the one key field', () => {
    expect(encodeCursor(POSITION_KEY, 7)).toBe(raw({ position: 7 }));
    expect(encodeCursor(ID_KEY, FEEDBACK_ID)).toBe(raw({ id: FEEDBACK_ID }));
  });
});

describe('position bounds', () => {
  it('accepts the largest position a PostgreSQL integer holds and nothing past it', () => {
    expect(MAX_POSITION).toBe(2147483647);
    expect(cursorValue(raw({ position: MAX_POSITION }), POSITION_KEY)).toBe(MAX_POSITION);
    expect(cursorValue(raw({ position: MAX_POSITION + 1 }), POSITION_KEY)).toBeNull();
  });
});

describe('cursorValue refuses anything else', () => {
  it.each([
    ['a position of 0', raw({ position: 0 })],
    ['a negative position', raw({ position: -1 })],
    ['a fractional position', raw({ position: 2.5 })],
    ['an unsafe integer', raw({ position: 2 ** 53 })],
    ['a position past the integer column (2^31)', raw({ position: 2 ** 31 })],
    ['the largest safe integer', raw({ position: 2 ** 53 - 1 })],
    ['an out-of-range number', raw({ position: 1e308 })],
    ['a position as a string', raw({ position: '3' })],
    ['a position in an array', raw({ position: [3] })],
    ['a nested object', raw({ position: { value: 3 } })],
    ['a null position', raw({ position: null })],
    ['an extra field', raw({ position: 3, id: FEEDBACK_ID })],
    ['the wrong field', raw({ id: FEEDBACK_ID })],
    ['an empty object', raw({})],
    ['an array', raw([3])],
    ['null', raw(null)],
    ['a number', raw(3)],
    ['not JSON', Buffer.from('{position:3').toString('base64url')],
    ['a huge string', 'A'.repeat(600)],
  ])('a position cursor with %s', (_case, cursor) => {
    expect(cursorValue(cursor, POSITION_KEY)).toBeNull();
  });

  it.each([
    ['an id of another prefix', raw({ id: 'ws_01JD3Z4Q9X8V7T6S5R4Q3P2N1M' })],
    ['an id too short', raw({ id: 'fb_01JD3Z' })],
    ['an id with lower-case letters', raw({ id: 'fb_01jd3z4q9x8v7t6s5r4q3p2n1m' })],
    ['an id that is a number', raw({ id: 123 })],
    ['an id in an array', raw({ id: [FEEDBACK_ID] })],
    ['an id padded with text', raw({ id: `${FEEDBACK_ID}' OR 1=1` })],
    ['a long string', raw({ id: 'x'.repeat(300) })],
    ['a prototype key', '{"__proto__":{"id":1}}'],
  ])('an id cursor with %s', (_case, cursor) => {
    expect(cursorValue(cursor, ID_KEY)).toBeNull();
  });
});

describe('published cursors', () => {
  const at = new Date('2026-11-20T10:00:00.000Z');

  it('round-trip the time and the id', () => {
    const cursor = encodeCursor(PUBLISHED_KEY, publishedCursorValue(at, ENTRY_ID));
    expect(publishedKeyOf('ce', cursorValue(cursor, PUBLISHED_KEY))).toEqual({ publishedAt: at, id: ENTRY_ID });
  });

  it('accept the first and the last four-digit years', () => {
    for (const time of ['0001-01-01T00:00:00.000Z', '9999-12-31T23:59:59.999Z']) {
      expect(publishedKeyOf('ce', `${time}|${ENTRY_ID}`)).toEqual({ publishedAt: new Date(time), id: ENTRY_ID });
    }
  });

  it.each([
    ['no separator', raw({ published: ENTRY_ID })],
    ['a time that is not ISO', raw({ published: `yesterday|${ENTRY_ID}` })],
    ['a time without milliseconds', raw({ published: `2026-11-20T10:00:00Z|${ENTRY_ID}` })],
    ['an id of another prefix', raw({ published: `2026-11-20T10:00:00.000Z|${FEEDBACK_ID}` })],
    ['a third part', raw({ published: `2026-11-20T10:00:00.000Z|${ENTRY_ID}|x` })],
    ['a number', raw({ published: 3 })],
    ['a year before 1', raw({ published: `-271821-04-20T00:00:00.000Z|${ENTRY_ID}` })],
    ['year 0', raw({ published: `0000-01-01T00:00:00.000Z|${ENTRY_ID}` })],
    ['a year past 9999', raw({ published: `+275760-09-13T00:00:00.000Z|${ENTRY_ID}` })],
  ])('refuse %s', (_case, cursor) => {
    expect(cursorValue(cursor, PUBLISHED_KEY)).toBeNull();
  });
});

describe('decodeCursor', () => {
  it('answers 400 VALIDATION_ERROR on cursor for a bad one', () => {
    expect(() => decodeCursor('garbage', POSITION_KEY)).toThrow(ApiError);
    try {
      decodeCursor('garbage', POSITION_KEY);
    } catch (error) {
      expect(error).toMatchObject({ code: 'VALIDATION_ERROR', status: 400, param: 'cursor' });
    }
  });
});
