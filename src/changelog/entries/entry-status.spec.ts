import { statusOnCreate } from './entry-status';
import { apiFailureOf } from '../../../test/support/api-failure';

const NOW = new Date('2026-11-20T10:00:00Z');

describe('statusOnCreate', () => {
  it('follows the spec table', () => {
    expect(statusOnCreate(true, null)).toBe('draft');
    expect(statusOnCreate(false, null)).toBe('published');
    expect(statusOnCreate(false, NOW)).toBe('scheduled');
    expect(apiFailureOf(() => statusOnCreate(true, NOW))).toMatchObject({ param: 'status' });
  });
});
