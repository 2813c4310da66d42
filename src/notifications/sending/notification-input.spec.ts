import { ApiError } from '../../common/errors/api-error';
import { dataProblem, isLinkOrSitePath, rateOf, reactionsOf, targetOf, usageMonthOf, visibleAtOf } from './notification-input';

const paramOf = (fn: () => unknown): string | undefined => {
  try {
    fn();
  } catch (error) {
    return (error as ApiError).param;
  }
  throw new Error('expected an ApiError');
};

describe('notification input', () => {
  it('takes http(s) URLs and site paths only', () => {
    expect(['https://a.example/x', 'http://a.example', '/path?q=1#h'].every(isLinkOrSitePath)).toBe(true);
    expect(
      ['//evil.example', '/\\evil.example', 'javascript:alert(1)', 'mailto:a@b.c', 'https://', 'path', '/a b', ''].some(isLinkOrSitePath),
    ).toBe(false);
  });

  it('measures data in UTF-8 bytes of its JSON', () => {
    expect(dataProblem({ k: 'é'.repeat(1020) })).toBeNull(); // 8 + 2040 = 2048 bytes
    expect(dataProblem({ k: 'é'.repeat(1021) })).toContain('2050');
    expect(dataProblem([1])).toBe('must be a JSON object');
  });

  it('picks one target kind', () => {
    expect(targetOf({ user_id: 'u' })).toEqual({ kind: 'user', userId: 'u' });
    expect(targetOf({ audience: 'all' })).toEqual({ kind: 'broadcast' });
    expect(targetOf({ user_ids: ['a'], audience: 'user' })).toEqual({ kind: 'group' });
    expect(paramOf(() => targetOf({ user_id: 'u', audience: 'all' }))).toBe('audience');
    expect(paramOf(() => targetOf({}))).toBe('user_id');
    expect(paramOf(() => targetOf({ user_id: 'u', emails: ['a@b.c'] }))).toBe('user_id');
    expect(paramOf(() => targetOf({ audience: 'all', contacts: {} }))).toBe('audience');
  });

  it('schedules up to 60 days ahead and sends past times now', () => {
    const now = new Date('2026-11-01T00:00:00Z');
    expect(visibleAtOf(undefined, now)).toBe(now);
    expect(visibleAtOf('2026-10-01T00:00:00Z', now)).toBe(now);
    expect(visibleAtOf('2026-12-31T00:00:00Z', now).toISOString()).toBe('2026-12-31T00:00:00.000Z');
    expect(paramOf(() => visibleAtOf('2026-12-31T00:00:01Z', now))).toBe('send_at');
  });

  it('takes reactions from the set, in the given order', () => {
    const set = ['like', 'celebrate', 'dislike'];
    expect(reactionsOf(true, set)).toEqual(set);
    expect(reactionsOf(['dislike', 'like'], set)).toEqual(['dislike', 'like']);
    expect(reactionsOf(false, set)).toBeNull();
    expect(reactionsOf([], set)).toBeNull();
    expect(paramOf(() => reactionsOf(['like', 'fire'], set))).toBe('reactions.1');
  });

  it('counts months in UTC and rates to three decimals', () => {
    expect(usageMonthOf(new Date('2026-11-30T23:59:59-05:00'))).toBe('2026-12');
    expect(rateOf(2, 3)).toBe(0.667);
    expect(rateOf(1, 3)).toBe(0.333);
    expect(rateOf(0, 0)).toBeNull();
  });
});
