import { AudienceInputDto, CreateNotificationDto } from '../../notifications/sending/dto/create-notification.dto';
import { ListNotificationsQueryDto } from '../../notifications/sending/dto/list-notifications-query.dto';
import { AudiencePreviewDto, SentNotificationDto } from '../../notifications/sending/dto/sent-notification.dto';
import { ManagementService } from '../../notifications/sending/management.service';
import { SendService } from '../../notifications/sending/send.service';
import { McpIdempotency } from '../mcp-idempotency.service';
import { READ, type ToolDefinition, listOutput } from '../tool-kit';
import { dtoJsonSchema } from '../tool-schemas';
import type { ServiceResolver } from './service-resolver';

const QUOTA = 'Counts against the monthly notification quota (Free 1000, Indie 20000, Builder 200000; a group or broadcast counts once).';

/** The notifications group: the in-app bell, sent to one user, a group or everyone. */
export function notificationTools(services: ServiceResolver): ToolDefinition[] {
  const sending = services.get(SendService);
  const management = services.get(ManagementService);
  const idempotency = services.get(McpIdempotency);
  const sent = dtoJsonSchema(SentNotificationDto, { closed: false });
  return [
    {
      name: 'send_notification',
      group: 'notifications',
      title: 'Send an in-app notification',
      description: `Sends a notification to the bell of one user (user_id), a group (user_ids, emails, contact_ids, contacts) or everyone (audience "all"), now or at send_at. Without confirm: true it sends nothing and answers a preview: who it reaches (for a group, the audience preview numbers) and the month's usage. ${QUOTA} Pass idempotency_key so a retry does not send twice.`,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
      input: { dto: CreateNotificationDto, from: 'body', idempotent: true },
      rest: { method: 'post', path: '/v1/notifications' },
      output: sent,
      preview: async (caller, { input }) => ({
        action: 'send',
        ...(await sending.previewSend(caller.project, input as unknown as CreateNotificationDto)),
      }),
      run: (caller, args) =>
        idempotency.run(caller, 'send_notification', args, () =>
          sending.createNotification(caller.project, args.input as unknown as CreateNotificationDto),
        ),
    },
    {
      name: 'preview_notification_audience',
      group: 'notifications',
      title: 'Preview a notification group',
      description:
        'How many people a group (user_ids, emails, contact_ids, contacts) names, how many the bell can reach, and a sample of the unreachable ones. Sends nothing, uses no quota. All plans.',
      annotations: READ,
      input: { dto: AudienceInputDto, from: 'body' },
      rest: { method: 'post', path: '/v1/notifications/audience' },
      output: dtoJsonSchema(AudiencePreviewDto, { closed: false }),
      run: (caller, { input }) => sending.previewAudience(caller.project, input as AudienceInputDto),
    },
    {
      name: 'list_notifications',
      group: 'notifications',
      title: 'List sent notifications',
      description:
        'What was sent, newest first; filter by user_id (groups they were in included), audience, status (read, unread, scheduled) or category. Returns {items, next_cursor}. All plans.',
      annotations: READ,
      input: { dto: ListNotificationsQueryDto, from: 'query' },
      rest: { method: 'get', path: '/v1/notifications' },
      output: listOutput(sent),
      run: (caller, { input }) => management.listNotifications(caller.project, input as ListNotificationsQueryDto),
    },
  ];
}
