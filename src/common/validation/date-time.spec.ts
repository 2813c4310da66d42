import { dateTimeProblem } from './date-time';

describe('dateTimeProblem', () => {
  it.each([
    '2026-11-20T10:00:00Z',
    '2026-11-20T10:00:00.123Z',
    '2026-11-20T10:00:00+02:00',
    '2028-02-29T00:00:00Z',
    '2000-02-29T23:59:59-05:30',
  ])('accepts %s', (value) => {
    expect(dateTimeProblem(value)).toBeNull();
  });

  it.each([
    ['2026-02-31T00:00:00Z', 'must be a date that exists in the calendar'],
    ['2026-02-29T00:00:00Z', 'must be a date that exists in the calendar'],
    ['1900-02-29T00:00:00Z', 'must be a date that exists in the calendar'],
    ['2026-04-31T00:00:00Z', 'must be a date that exists in the calendar'],
    ['2026-13-01T00:00:00Z', 'must be a date that exists in the calendar'],
    ['2026-00-10T00:00:00Z', 'must be a date that exists in the calendar'],
    ['2026-12-31T23:59:60Z', 'must be a time of day from 00:00:00 to 23:59:59'],
    ['2026-12-31T24:00:00Z', 'must be a time of day from 00:00:00 to 23:59:59'],
    ['2026-12-31T10:00:00+24:00', 'must have an offset from -23:59 to +23:59'],
  ])('refuses %s', (value, problem) => {
    expect(dateTimeProblem(value)).toBe(problem);
  });

  it.each(['2026-11-20', '2026-11-20T10:00:00', 'yesterday', '', '+275760-09-13T00:00:00Z', '2026-11-20T10:00Z'])(
    'refuses the shape of %j',
    (value) => {
      expect(dateTimeProblem(value)).toMatch(/^must be an ISO 8601 date-time/);
    },
  );

  it('refuses non-strings', () => {
    expect(dateTimeProblem(1_700_000_000)).toBe('must be a string');
    expect(dateTimeProblem(['2026-11-20T10:00:00Z'])).toBe('must be a string');
  });
});
