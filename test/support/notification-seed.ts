import { createHmac } from 'node:crypto';
import { newId } from '../../src/common/ids/ids';
import { NotificationEntity, type NotificationAction, type NotificationIcon } from '../../src/notifications/entities/notification.entity';
import { NotificationReceiptEntity } from '../../src/notifications/entities/notification-receipt.entity';
import { NotificationRecipientEntity } from '../../src/notifications/entities/notification-recipient.entity';
import { BellStateCache } from '../../src/notifications/bell/bell-state.cache';
import type { TestApp } from './test-app';

export interface NotificationSeed {
  /** One person (a user send); with `userIds`, a group; with neither, a broadcast. */
  userId?: string;
  userIds?: string[];
  title?: string;
  body?: string;
  category?: string | null;
  icon?: NotificationIcon;
  actions?: NotificationAction[];
  data?: Record<string, unknown> | null;
  reactions?: string[] | null;
  pinned?: boolean;
  /** When it shows; default now (by the app's clock). A time ahead makes it scheduled. */
  visibleAt?: Date;
  /** Default: the visible time. */
  createdAt?: Date;
}

/**
 * A notification written straight to the tables, as the sending side stores it: one row, plus one
 * notification_recipients row per person of a user or group send (with `visible_at` copied).
 * For bell suites that must not depend on the send route. Like a send, it announces the change to
 * the bells it reaches, so no process answers from a copy that predates it.
 */
export async function seedNotification(t: TestApp, projectId: string, seed: NotificationSeed = {}): Promise<NotificationEntity> {
  const now = t.clock.now();
  const visibleAt = seed.visibleAt ?? now;
  const people = seed.userIds ?? (seed.userId !== undefined ? [seed.userId] : []);
  const kind = seed.userIds ? 'group' : seed.userId !== undefined ? 'user' : 'broadcast';
  const row: NotificationEntity = {
    id: newId('ntf'),
    projectId,
    kind,
    userId: kind === 'user' ? (seed.userId ?? null) : null,
    title: seed.title ?? 'Hello',
    body: seed.body ?? 'Something happened.',
    actionUrl: null,
    icon: seed.icon ?? 'info',
    category: seed.category ?? null,
    actions: seed.actions ?? [],
    data: seed.data ?? null,
    reactions: seed.reactions ?? null,
    pinned: seed.pinned ?? false,
    status: visibleAt.getTime() > now.getTime() ? 'scheduled' : 'visible',
    visibleAt,
    recipientCount: people.length,
    usageMonth: visibleAt.toISOString().slice(0, 7),
    changelogEntryId: null,
    createdAt: seed.createdAt ?? visibleAt,
  };
  await t.db.transaction(async (em) => {
    await em.save(NotificationEntity, { ...row });
    if (people.length > 0) {
      await em.insert(
        NotificationRecipientEntity,
        people.map((userId) => ({ notificationId: row.id, userId, projectId, visibleAt })),
      );
    }
    const bells = t.get(BellStateCache);
    await (kind === 'broadcast' ? bells.announceProject(em, projectId) : bells.announcePeople(em, projectId, people));
  });
  return row;
}

/** A person's receipt of a notification, as the bell stores it (null when they never touched it). */
export async function receiptOf(t: TestApp, notificationId: string, userId: string): Promise<NotificationReceiptEntity | null> {
  return t.db.manager.findOneBy(NotificationReceiptEntity, { notificationId, userId });
}

/** What an integrator's server computes for `user_hash` (spec: Notification identity verification). */
export function userHashOf(userId: string, secret: string): string {
  return createHmac('sha256', secret).update(userId, 'utf8').digest('hex');
}
