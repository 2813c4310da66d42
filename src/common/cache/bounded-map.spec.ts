import { BoundedMap } from './bounded-map';

describe('BoundedMap', () => {
  it('drops the oldest eighth when a new key comes to a full map, and keeps the rest in order', () => {
    const map = new BoundedMap<string, number>(16);
    for (let i = 0; i < 16; i += 1) map.set(`k${i}`, i);
    map.set('k16', 16);
    expect(map.size).toBe(15);
    expect([...map.keys()]).toEqual([...Array.from({ length: 14 }, (_, i) => `k${i + 2}`), 'k16']);
  });

  it('replaces a stored key in a full map without dropping anything, and the key keeps its place', () => {
    const map = new BoundedMap<string, number>(4);
    for (let i = 0; i < 4; i += 1) map.set(`k${i}`, i);
    map.set('k0', 100);
    expect([...map.entries()]).toEqual([
      ['k0', 100],
      ['k1', 1],
      ['k2', 2],
      ['k3', 3],
    ]);
  });

  it('drops at least one entry when an eighth rounds to none', () => {
    const map = new BoundedMap<string, number>(3);
    ['a', 'b', 'c', 'd'].forEach((key, i) => map.set(key, i));
    expect([...map.keys()]).toEqual(['b', 'c', 'd']);
  });

  it('refuses a size that is not a whole number above 0', () => {
    expect(() => new BoundedMap(0)).toThrow('whole number of entries above 0');
    expect(() => new BoundedMap(1.5)).toThrow('whole number of entries above 0');
  });
});
