import type { EndUser } from '../../auth/caller';
import { planLimit } from '../../projects/plans';
import type { ProjectRef } from '../../projects/project-ref';

export const VERIFICATION_OFF_WARNING =
  'Identity verification is off for this project: anyone who knows a user_id can read and mark that person\'s notifications. Create a signing secret, send user_hash from your server, then switch it on with PATCH /v1/notifications/settings {"require_user_hash": true}.';

/**
 * The `meta` of a bell answer: how often to poll (the plan's interval) and, when a legacy project
 * answered without a hash, `identity_verification: "off"` with a warning in `warnings` (a list, so
 * a client can show every warning the same way).
 */
export function bellMeta(project: ProjectRef, user: EndUser, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const meta: Record<string, unknown> = { ...extra, poll_interval_seconds: planLimit(project.plan, 'bellPollIntervalSeconds') };
  if (!user.verified) {
    meta.identity_verification = 'off';
    meta.warnings = [VERIFICATION_OFF_WARNING];
  }
  return meta;
}
