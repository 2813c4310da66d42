import { EVENT_CATALOG, EVENT_TYPES, fieldMismatch } from './event-catalog';

describe('event catalog', () => {
  it('lists the five event types of the spec', () => {
    expect(EVENT_TYPES.sort()).toEqual([
      'changelog.entry.published',
      'changelog.subscriber.created',
      'feedback.created',
      'waitlist.signup.created',
      'waitlist.signups.invited',
    ]);
  });

  it('never lets the submitter email into feedback.created', () => {
    expect(EVENT_CATALOG['feedback.created'].fields).not.toContain('email');
    expect(EVENT_CATALOG['feedback.created'].fields).toContain('has_email');
  });

  it('reports extra and missing fields', () => {
    const data = { count: 1, invited: [], surprise: true };
    expect(fieldMismatch('waitlist.signups.invited', data)).toEqual({ extra: ['surprise'], missing: ['invited_at'] });
  });
});
