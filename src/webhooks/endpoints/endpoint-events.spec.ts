import { ApiError } from '../../common/errors/api-error';
import { parseEvents, subscribesTo } from './endpoint-events';

function failure(events: string[]): { code: string; param?: string } {
  try {
    parseEvents(events);
  } catch (error) {
    if (error instanceof ApiError) return { code: error.code, param: error.param };
    throw error;
  }
  throw new Error('passed');
}

describe('parseEvents', () => {
  it('keeps catalog types, without duplicates', () => {
    expect(parseEvents(['feedback.created', 'waitlist.signup.created', 'feedback.created'])).toEqual([
      'feedback.created',
      'waitlist.signup.created',
    ]);
    expect(parseEvents(['*', '*'])).toEqual(['*']);
  });

  it('names the position of an unknown type', () => {
    expect(failure(['feedback.created', 'waitlist.signup.created', 'nope.created'])).toEqual({
      code: 'VALIDATION_ERROR',
      param: 'events.2',
    });
  });

  it('refuses an empty list and "*" mixed with types', () => {
    expect(failure([])).toEqual({ code: 'VALIDATION_ERROR', param: 'events' });
    expect(failure(['*', 'feedback.created'])).toEqual({ code: 'VALIDATION_ERROR', param: 'events' });
  });
});

describe('subscribesTo', () => {
  it('matches listed types and "*" (future types included)', () => {
    expect(subscribesTo(['feedback.created'], 'feedback.created')).toBe(true);
    expect(subscribesTo(['feedback.created'], 'waitlist.signup.created')).toBe(false);
    expect(subscribesTo(['*'], 'some.future.type')).toBe(true);
  });
});
