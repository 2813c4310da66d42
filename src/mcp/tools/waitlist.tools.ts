import { CreateInvitesDto } from '../../waitlist/dto/create-invites.dto';
import { InviteResultDto } from '../../waitlist/dto/invite-result.dto';
import { ListSignupsQueryDto } from '../../waitlist/dto/list-signups-query.dto';
import { SignupDto } from '../../waitlist/dto/signup.dto';
import { WaitlistStatsDto } from '../../waitlist/dto/waitlist-stats.dto';
import { InvitesService } from '../../waitlist/invites.service';
import { SignupsService } from '../../waitlist/signups.service';
import { StatsService } from '../../waitlist/stats.service';
import { McpIdempotency } from '../mcp-idempotency.service';
import { READ, type ToolDefinition, listOutput } from '../tool-kit';
import { dtoJsonSchema } from '../tool-schemas';
import type { ServiceResolver } from './service-resolver';

/** The waitlist group: who is waiting, how the list grows, and invite waves. */
export function waitlistTools(services: ServiceResolver): ToolDefinition[] {
  const signups = services.get(SignupsService);
  const stats = services.get(StatsService);
  const invites = services.get(InvitesService);
  const idempotency = services.get(McpIdempotency);
  return [
    {
      name: 'list_waitlist_signups',
      group: 'waitlist',
      title: 'List waitlist signups',
      description:
        'Waitlist signups in line order with email, position, referral numbers, confirmation and invite status; filter by status or email. Returns {items, next_cursor}; pass next_cursor as cursor for more. All plans.',
      annotations: READ,
      input: { dto: ListSignupsQueryDto, from: 'query' },
      rest: { method: 'get', path: '/v1/waitlist/signups' },
      output: listOutput(dtoJsonSchema(SignupDto, { closed: false })),
      run: (caller, { input }) => signups.listSignups(caller.project, input as ListSignupsQueryDto),
    },
    {
      name: 'get_waitlist_stats',
      group: 'waitlist',
      title: 'Waitlist numbers',
      description:
        'How many signed up, confirmed, are waiting, were invited or unsubscribed, signups per day and the top referrers. All plans.',
      annotations: READ,
      input: {},
      rest: { method: 'get', path: '/v1/waitlist/stats' },
      output: dtoJsonSchema(WaitlistStatsDto, { closed: false }),
      run: (caller) => stats.getStats(caller.project),
    },
    {
      name: 'invite_waitlist_signups',
      group: 'waitlist',
      title: 'Invite people from the waitlist',
      description:
        'Invites the next count waiting people (first in, first out) or one specific_email: each gets the invite email and the waitlist.signups.invited event goes out. Without confirm: true it changes nothing and answers a preview: how many would be invited and the first 20. Indie plan and up. Pass idempotency_key so a retry does not invite a second wave.',
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
      input: { dto: CreateInvitesDto, from: 'body', idempotent: true },
      rest: { method: 'post', path: '/v1/waitlist/invites' },
      // The REST route's @RequiresFeature (a test checks that the two agree).
      requires: 'waitlist_invites',
      output: dtoJsonSchema(InviteResultDto, { closed: false }),
      preview: async (caller, { input }) => ({
        action: 'invite',
        ...(await invites.previewInvites(caller.project, input as CreateInvitesDto)),
      }),
      run: (caller, args) =>
        idempotency.run(caller, 'invite_waitlist_signups', args, () =>
          invites.inviteSignups(caller.project, args.input as CreateInvitesDto),
        ),
    },
  ];
}
