import { jsonDepthExceeds } from './json-body';

const depth = (text: string, limit: number) => jsonDepthExceeds(Buffer.from(text, 'utf8'), limit);

describe('jsonDepthExceeds', () => {
  it('counts nested arrays and objects', () => {
    expect(depth('[[[]]]', 3)).toBe(false);
    expect(depth('[[[[]]]]', 3)).toBe(true);
    expect(depth('{"a":{"b":{"c":1}}}', 3)).toBe(false);
    expect(depth('{"a":{"b":{"c":[1]}}}', 3)).toBe(true);
  });

  it('ignores brackets inside strings, escaped quotes included', () => {
    expect(depth('{"a":"[[[[{{{{"}', 1)).toBe(false);
    expect(depth('{"a":"\\"[[[[\\\\"}', 1)).toBe(false);
    expect(depth('["é😀[[[["]', 1)).toBe(false);
  });

  it('handles siblings without accumulating depth', () => {
    expect(depth(`[${'[],'.repeat(1000)}[]]`, 2)).toBe(false);
  });
});
