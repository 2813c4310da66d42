import { commitsProblem } from './draft-input';

describe('commitsProblem', () => {
  it('accepts messages of 1 to 10000 characters', () => {
    expect(commitsProblem(['x', 'feat: y\n\nbody', 'a'.repeat(10_000)])).toBeNull();
  });

  it('names the first bad commit by index', () => {
    expect(commitsProblem(['feat: a', 'fix: b', 'ok', 42])).toEqual({ param: 'commits.3', message: 'commits.3 must be a string.' });
    expect(commitsProblem(['ok', ''])).toMatchObject({ param: 'commits.1', message: expect.stringContaining('1 to 10000 characters') });
    expect(commitsProblem(['a'.repeat(10_001)])).toMatchObject({ param: 'commits.0' });
    expect(commitsProblem(['ok', ' \n\t'])).toMatchObject({ param: 'commits.1', message: expect.stringContaining('whitespace') });
  });
});
