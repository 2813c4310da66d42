import { ApiError } from '../../common/errors/api-error';
import { statusOnCreate } from './entry-status';

const NOW = new Date('2026-11-20T10:00:00Z');

function failure(run: () => unknown): { code: string; param?: string; message: string } {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError) return { code: error.code, param: error.param, message: error.message };
    throw error;
  }
  throw new Error('expected a failure');
}

describe('statusOnCreate', () => {
  it('follows the spec table', () => {
    expect(statusOnCreate(true, null)).toBe('draft');
    expect(statusOnCreate(false, null)).toBe('published');
    expect(statusOnCreate(false, NOW)).toBe('scheduled');
    expect(failure(() => statusOnCreate(true, NOW))).toMatchObject({ param: 'status' });
  });
});
