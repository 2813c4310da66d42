import { ApiError } from '../common/errors/api-error';
import type { CreateInvitesDto } from './dto/create-invites.dto';

export type InviteTarget = { count: number } | { email: string };

/**
 * Exactly one of `count` and `specific_email`; the spec leaves both and neither open, we refuse
 * them. The email is already normalised by the DTO.
 */
export function inviteTarget(input: CreateInvitesDto): InviteTarget {
  const hasCount = input.count !== undefined && input.count !== null;
  const hasEmail = input.specific_email !== undefined && input.specific_email !== null;
  if (hasCount && hasEmail) {
    throw new ApiError('VALIDATION_ERROR', 'Send either count or specific_email, not both.', { param: 'specific_email' });
  }
  if (hasCount) return { count: input.count as number };
  if (hasEmail) return { email: input.specific_email as string };
  throw new ApiError('VALIDATION_ERROR', 'Send count (the next N people) or specific_email (one person).', { param: 'count' });
}
