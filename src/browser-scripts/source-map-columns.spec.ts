import { decodeSegment, encodeSegment, shiftMappings } from './source-map-columns';

describe('source map VLQ segments', () => {
  it('decodes and encodes the values of the specification examples, signs and long numbers included', () => {
    expect(decodeSegment('AAAA')).toEqual([0, 0, 0, 0]);
    expect(decodeSegment('SAAAA')).toEqual([9, 0, 0, 0, 0]);
    expect(decodeSegment('D')).toEqual([-1]);
    expect(decodeSegment('2HwcqxB')).toEqual([123, 456, 789]);
    for (const values of [[0], [-1, 1], [15, -16, 16, 1_000_000, -1_000_000], [2 ** 30]]) {
      expect(decodeSegment(encodeSegment(values))).toEqual(values);
    }
    expect(() => decodeSegment('A!')).toThrow('"!" is not a base64 digit');
  });
});

describe('shiftMappings', () => {
  // Line 0: segments at columns 0, 10, 30; line 1: one at column 5.
  const mappings = [
    `${encodeSegment([0, 0, 0, 0])},${encodeSegment([10, 0, 0, 4])},${encodeSegment([20, 0, 0, 6])}`,
    encodeSegment([5, 0, 1, 0]),
  ].join(';');
  const columns = (text: string) =>
    text.split(';').map((line) => {
      let column = 0;
      return line ? line.split(',').map((segment) => (column += decodeSegment(segment)[0])) : [];
    });

  it('moves every segment after the column on that line, and nothing else', () => {
    expect(columns(mappings)).toEqual([[0, 10, 30], [5]]);
    expect(columns(shiftMappings(mappings, 0, 5, 7))).toEqual([[0, 17, 37], [5]]);
    expect(columns(shiftMappings(mappings, 0, 12, -3))).toEqual([[0, 10, 27], [5]]);
    expect(shiftMappings(mappings, 0, 40, 7)).toBe(mappings);
    expect(shiftMappings(mappings, 3, 0, 7)).toBe(mappings);
  });

  it('keeps the other fields of the moved segment', () => {
    const moved = shiftMappings(mappings, 0, 5, 7).split(';')[0].split(',')[1];
    expect(decodeSegment(moved)).toEqual([17, 0, 0, 4]);
  });
});
