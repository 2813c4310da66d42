import { Injectable } from '@nestjs/common';
import { Database } from '../../infra/database/database.service';
import type { ProjectRef } from '../../projects/project-ref';
import { ProjectSettingsService } from '../../projects/project-settings.service';
import { ChangelogSettingsDto, UpdateChangelogSettingsDto } from './dto/changelog-settings.dto';
import { ChangelogReactionSet } from './reaction-set.service';

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
    private readonly reactionSet: ChangelogReactionSet,
    private readonly projectSettings: ProjectSettingsService,
  ) {}

  async getSettings(project: ProjectRef): Promise<ChangelogSettingsDto> {
    return { reaction_set: await this.reactionSet.read(this.db.manager, project.id) };
  }

  async updateSettings(project: ProjectRef, input: UpdateChangelogSettingsDto): Promise<ChangelogSettingsDto> {
    // A top-level merge in one statement, so a concurrent change to another setting is kept.
    await this.projectSettings.merge(this.db.manager, project.id, { changelog_reaction_set: [...input.reaction_set] });
    return { reaction_set: [...input.reaction_set] };
  }
}
