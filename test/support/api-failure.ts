import { ApiError } from '../../src/common/errors/api-error';

/** What `run` refuses with, as the envelope would carry it; fails the test when it does not refuse. */
export function apiFailureOf(run: () => unknown): { code: string; param?: string; message: string } {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError) return { code: error.code, param: error.param, message: error.message };
    throw error;
  }
  throw new Error('expected a refusal, but it passed');
}
