import { ChangelogEntryEntity } from '../../src/changelog/entities/changelog-entry.entity';
import { ChangelogLabelEntity } from '../../src/changelog/entities/changelog-label.entity';
import { ChangelogSubscriberEntity } from '../../src/changelog/entities/changelog-subscriber.entity';
import { EventEntity } from '../../src/events/entities/event.entity';
import { MailMessageEntity } from '../../src/infra/mail/entities/mail-message.entity';
import { seedEntry as seedEntryRow, seedLabel as seedLabelRow } from '../support/changelog-seed';
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

/** A label written directly; named after its slug in capitals. */
export function seedLabel(t: TestApp, projectId: string, slug: string, name = slug.toUpperCase()): Promise<ChangelogLabelEntity> {
  return seedLabelRow(t, projectId, { slug, name });
}

/** A published entry that asks for subscriber emails, written directly with its labels. */
export function seedEntry(
  t: TestApp,
  projectId: string,
  overrides: Partial<ChangelogEntryEntity> = {},
  labels: ChangelogLabelEntity[] = [],
): Promise<ChangelogEntryEntity> {
  return seedEntryRow(t, projectId, {
    title: 'Dark mode',
    bodyMarkdown: 'Everything is **darker** now. [Read the docs](https://docs.example.com/dark)',
    version: 'v2.0',
    publishedAt: t.clock.now(),
    notifySubscribers: true,
    ...overrides,
    labels: labels.map((label) => label.slug),
  });
}
