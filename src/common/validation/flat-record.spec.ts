import { flatRecordProblem } from './flat-record';

describe('flat records', () => {
  it('accepts strings, numbers and booleans', () => {
    expect(flatRecordProblem({ plan: 'pro', seats: 3, beta: true })).toBeNull();
    expect(flatRecordProblem({})).toBeNull();
  });

  it('names the offending key', () => {
    expect(flatRecordProblem({ nested: { a: 1 } })).toBe('.nested must be a string, number or boolean');
    expect(flatRecordProblem({ list: [1] })).toBe('.list must be a string, number or boolean');
    expect(flatRecordProblem({ nothing: null })).toBe('.nothing must be a string, number or boolean');
  });

  it('refuses non-objects and oversized records', () => {
    expect(flatRecordProblem([])).toBe('must be an object');
    expect(flatRecordProblem('x')).toBe('must be an object');
    expect(flatRecordProblem(Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, i])))).toBe('must have at most 50 keys');
    expect(flatRecordProblem({ long: 'x'.repeat(1001) })).toBe('.long must be at most 1000 characters');
  });
});
