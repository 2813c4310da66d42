import { EventEntity } from '../../src/events/entities/event.entity';
import { MailMessageEntity } from '../../src/infra/mail/entities/mail-message.entity';
import { WaitlistSignupEntity } from '../../src/waitlist/entities/waitlist-signup.entity';
import type { TestApp } from '../support/test-app';

export const BASE_URL = 'https://launch.test';

/** The base-url-relative path of the first link of that kind in an email body, such as /v1/waitlist/confirm?token=… */
export function linkIn(text: string, kind: 'confirm' | 'unsubscribe'): string {
  const match = new RegExp(`${BASE_URL.replace(/\./g, '\\.')}(/v1/waitlist/${kind}\\?token=[A-Za-z0-9_-]+)`).exec(text);
  if (!match) throw new Error(`no ${kind} link in: ${text}`);
  return match[1];
}

export async function mailsTo(t: TestApp, projectId: string, recipient: string, kind?: string): Promise<MailMessageEntity[]> {
  const rows = await t.db.manager.find(MailMessageEntity, { where: { projectId, recipient }, order: { createdAt: 'ASC', id: 'ASC' } });
  return kind ? rows.filter((row) => row.kind === kind) : rows;
}

export async function eventsOf(t: TestApp, projectId: string, type: string): Promise<EventEntity[]> {
  return t.db.manager.find(EventEntity, { where: { projectId, type }, order: { id: 'ASC' } });
}

export async function signupRows(t: TestApp, projectId: string): Promise<WaitlistSignupEntity[]> {
  return t.db.manager.find(WaitlistSignupEntity, { where: { projectId }, order: { position: 'ASC' } });
}

export async function signupByEmail(t: TestApp, projectId: string, email: string): Promise<WaitlistSignupEntity> {
  return t.db.manager.findOneByOrFail(WaitlistSignupEntity, { projectId, email });
}
