import type { ChangelogSubscriberEntity } from '../entities/changelog-subscriber.entity';

/**
 * The data of `changelog.subscriber.created` (spec: Events): `created_at` is when the person
 * subscribed (the subscriber's own `created_at`), also when the event waits for the confirmation.
 */
export function subscriberCreatedData(subscriber: ChangelogSubscriberEntity, labels: readonly string[]): Record<string, unknown> {
  return {
    subscriber_id: subscriber.id,
    email: subscriber.email,
    created_at: subscriber.createdAt.toISOString(),
    labels: [...labels],
  };
}
