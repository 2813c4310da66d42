import { fieldMismatch } from '../../events/event-catalog';
import { ChangelogSubscriberEntity } from '../entities/changelog-subscriber.entity';
import { subscriberCreatedData } from './subscriber-event';

describe('subscriberCreatedData', () => {
  it("has exactly the catalog's fields, with the label slugs", () => {
    const subscriber = Object.assign(new ChangelogSubscriberEntity(), {
      id: 'sub_01JD3Z4Q9X8V7T6S5R4Q3P2N1M',
      projectId: 'prj_01JD3Z4Q9X8V7T6S5R4Q3P2N1M',
      email: 'ada@example.com',
      confirmed: true,
      confirmedAt: null,
      createdAt: new Date('2026-11-20T10:00:00.000Z'),
    });
    const data = subscriberCreatedData(subscriber, ['api']);
    expect(data).toEqual({
      subscriber_id: subscriber.id,
      email: 'ada@example.com',
      created_at: '2026-11-20T10:00:00.000Z',
      labels: ['api'],
    });
    expect(fieldMismatch('changelog.subscriber.created', data)).toEqual({ extra: [], missing: [] });
  });
});
