import { Injectable } from '@nestjs/common';
import { Clock } from '../../common/clock/clock';
import { Database } from '../../infra/database/database';
import type { ProjectRef } from '../../projects/project-ref';
import { ChangelogSettingsDto, UpdateChangelogSettingsDto } from '../dto/changelog-settings.dto';
import { type ReactionName, reactionSetOf } from './reaction-set';

/**
 * Changelog settings (spec: Reaction set, `PATCH /v1/changelog/settings`; the GET is ours). Stored
 * in the project's `settings` document under `changelog_reaction_set`, merged so other modules'
 * switches stay. Read fresh from the database on every call: the project on the request comes from
 * the API key cache and may be seconds old.
 */
@Injectable()
export class ChangelogSettingsService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  async getSettings(project: ProjectRef): Promise<ChangelogSettingsDto> {
    const [row]: { reaction_set: ReactionName[] | null }[] = await this.db.manager.query(
      "SELECT settings -> 'changelog_reaction_set' AS reaction_set FROM projects WHERE id = $1",
      [project.id],
    );
    return { reaction_set: reactionSetOf({ changelog_reaction_set: row?.reaction_set ?? undefined }) };
  }

  async updateSettings(project: ProjectRef, input: UpdateChangelogSettingsDto): Promise<ChangelogSettingsDto> {
    // jsonb || merges at the top level in one statement, so a concurrent change to another setting is kept.
    await this.db.manager.query(
      "UPDATE projects SET settings = settings || jsonb_build_object('changelog_reaction_set', $2::jsonb), updated_at = $3 WHERE id = $1",
      [project.id, JSON.stringify(input.reaction_set), this.clock.now()],
    );
    return { reaction_set: [...input.reaction_set] };
  }
}
