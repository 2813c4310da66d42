import { EVENT_CATALOG, fieldMismatch } from '../events/event-catalog';
import { FeedbackEntity } from './entities/feedback.entity';
import { feedbackCreatedData } from './feedback-event';

const row = (email: string | null): FeedbackEntity =>
  Object.assign(new FeedbackEntity(), {
    id: 'fb_01JD3Z4Q9X8V7T6S5R4Q3P2N1M',
    projectId: 'prj_01JD3Z4Q9X8V7T6S5R4Q3P2N1M',
    feedbackText: 'I was charged twice this month.',
    classification: 'billing',
    confidence: 0.91,
    summary: 'I was charged twice this month.',
    userId: 'user_42',
    email,
    pageUrl: 'https://app.example.com/billing',
    rating: 1,
    categoryHint: 'billing',
    changelogEntryId: null,
    createdAt: new Date('2026-11-20T10:00:00.000Z'),
  });

describe('feedbackCreatedData', () => {
  it('has exactly the fields of the event catalog', () => {
    expect(fieldMismatch('feedback.created', feedbackCreatedData(row('ada@example.com')))).toEqual({ extra: [], missing: [] });
    expect(Object.keys(feedbackCreatedData(row(null))).sort()).toEqual([...EVENT_CATALOG['feedback.created'].fields].sort());
  });

  it('says whether an email exists without ever carrying it', () => {
    const data = feedbackCreatedData(row('ada@example.com'));
    expect(data.has_email).toBe(true);
    expect(JSON.stringify(data)).not.toContain('ada@example.com');
    expect(feedbackCreatedData(row(null)).has_email).toBe(false);
  });

  it('writes created_at as ISO 8601 with Z', () => {
    expect(feedbackCreatedData(row(null)).created_at).toBe('2026-11-20T10:00:00.000Z');
  });
});
