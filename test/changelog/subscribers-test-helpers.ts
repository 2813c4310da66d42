import { ChangelogEntryLabelEntity } from '../../src/changelog/entities/changelog-entry-label.entity';
import { ChangelogEntryEntity } from '../../src/changelog/entities/changelog-entry.entity';
import { ChangelogLabelEntity } from '../../src/changelog/entities/changelog-label.entity';
import { ChangelogSubscriberEntity } from '../../src/changelog/entities/changelog-subscriber.entity';
import { newId } from '../../src/common/ids/ids';
import { EventEntity } from '../../src/events/entities/event.entity';
import { MailMessageEntity } from '../../src/infra/mail/entities/mail-message.entity';
import type { TestApp } from '../support/test-app';

export const BASE_URL = 'https://launch.test';

export type SubscriberLink = 'confirm' | 'unsubscribe' | 'preferences';

/** The base-url-relative path of a link of that kind in an email body, such as /v1/changelog/subscribers/confirm?token=… */
export function subscriberLinkIn(text: string, kind: SubscriberLink): string {
  const match = new RegExp(`${BASE_URL.replace(/\./g, '\\.')}(/v1/changelog/subscribers/${kind}\\?token=[A-Za-z0-9_-]+)`).exec(text);
  if (!match) throw new Error(`no ${kind} link in: ${text}`);
  return match[1];
}

export function tokenOf(link: string): string {
  return link.slice(link.indexOf('token=') + 'token='.length);
}

export async function mailsOf(t: TestApp, projectId: string, kind?: string): Promise<MailMessageEntity[]> {
  const rows = await t.db.manager.find(MailMessageEntity, { where: { projectId }, order: { createdAt: 'ASC', id: 'ASC' } });
  return kind ? rows.filter((row) => row.kind === kind) : rows;
}

export async function eventsOf(t: TestApp, projectId: string, type: string): Promise<EventEntity[]> {
  return t.db.manager.find(EventEntity, { where: { projectId, type }, order: { id: 'ASC' } });
}

export async function subscriberRows(t: TestApp, projectId: string): Promise<ChangelogSubscriberEntity[]> {
  return t.db.manager.find(ChangelogSubscriberEntity, { where: { projectId }, order: { id: 'ASC' } });
}

/** Labels are made by the labels work; these tests write the rows directly. */
export async function seedLabel(t: TestApp, projectId: string, slug: string, name = slug.toUpperCase()): Promise<ChangelogLabelEntity> {
  const now = t.clock.now();
  const label = Object.assign(new ChangelogLabelEntity(), {
    id: newId('lbl'),
    projectId,
    name,
    slug,
    colour: 'blue',
    createdAt: now,
    updatedAt: now,
  });
  await t.db.manager.insert(ChangelogLabelEntity, label);
  return label;
}

/** A published entry written directly (publishing is another module's work), with its labels. */
export async function seedEntry(
  t: TestApp,
  projectId: string,
  overrides: Partial<ChangelogEntryEntity> = {},
  labels: ChangelogLabelEntity[] = [],
): Promise<ChangelogEntryEntity> {
  const now = t.clock.now();
  const entry = Object.assign(new ChangelogEntryEntity(), {
    id: newId('ce'),
    projectId,
    title: 'Dark mode',
    bodyMarkdown: 'Everything is **darker** now. [Read the docs](https://docs.example.com/dark)',
    version: 'v2.0',
    category: 'feature',
    status: 'published',
    statusBeforeArchive: null,
    scheduledAt: null,
    publishedAt: now,
    archivedAt: null,
    coverImageUrl: null,
    ctaLabel: null,
    ctaUrl: null,
    audience: 'public',
    segment: null,
    pinned: false,
    expiresAt: null,
    announcementStyle: null,
    announcementUntil: null,
    notifySubscribers: true,
    notifyInApp: false,
    notifyChat: true,
    createdAt: now,
    updatedAt: now,
    ...overrides,
  });
  await t.db.manager.insert(ChangelogEntryEntity, entry);
  for (const label of labels) await t.db.manager.insert(ChangelogEntryLabelEntity, { entryId: entry.id, labelId: label.id });
  return entry;
}
