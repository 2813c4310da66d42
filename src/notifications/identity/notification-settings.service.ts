import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { WithMeta } from '../../common/http/reply';
import { Database } from '../../infra/database/database.service';
import type { ProjectSettings } from '../../projects/entities/project.entity';
import type { ProjectRef } from '../../projects/project-ref';
import { ProjectSettingsService } from '../../projects/project-settings.service';
import { ProjectsService } from '../../projects/projects.service';
import { identityVerificationMeta } from '../../projects/setup-check.service';
import { NotificationSettingsDto, UpdateNotificationSettingsDto } from './dto/notification-settings.dto';
import { hasSigningSecret } from './signing-secrets.queries';

export const SIGNING_SECRET_MISSING_WARNING = {
  code: 'SIGNING_SECRET_MISSING',
  message:
    'require_user_hash is on but this project has no signing secret, so every browser bell call is refused. Create one with POST /v1/notifications/signing-secret.',
} as const;

/**
 * Notification settings (spec: Notification settings, `GET`/`PATCH /v1/notifications/settings`).
 *
 * Choices the spec leaves open:
 * - Stored in the project's `settings` document, merged with jsonb `||` so other modules' switches
 *   stay; read fresh from the database (the project on the request comes from the key cache).
 * - `meta` carries what setup-check carries: `identity_verification: "off"` and a warning while
 *   verification is off. Turning it on without a signing secret is allowed (a project can switch
 *   on first and deploy after), but the answer then warns SIGNING_SECRET_MISSING.
 * - A change of `require_user_hash` drops the cached project of every process (in-process at once,
 *   elsewhere by NOTIFY at commit, as a plan change does), so the next bell call obeys it.
 *   Switching it off is allowed too: it is the owner's secret key asking.
 * - An empty PATCH changes nothing and answers the current settings.
 */
@Injectable()
export class NotificationSettingsService {
  constructor(
    private readonly db: Database,
    private readonly projects: ProjectsService,
    private readonly projectSettings: ProjectSettingsService,
  ) {}

  async getSettings(project: ProjectRef): Promise<NotificationSettingsDto | WithMeta<NotificationSettingsDto>> {
    const settings = await this.readSettings(this.db.manager, project.id);
    return this.answer(project, settings, await hasSigningSecret(this.db.manager, project.id));
  }

  async updateSettings(
    project: ProjectRef,
    input: UpdateNotificationSettingsDto,
  ): Promise<NotificationSettingsDto | WithMeta<NotificationSettingsDto>> {
    const patch: Partial<ProjectSettings> = {};
    if (input.require_user_hash !== undefined) patch.require_user_hash = input.require_user_hash;
    if (input.changelog_to_bell_default !== undefined) patch.changelog_to_bell_default = input.changelog_to_bell_default;
    const { settings, secret } = await this.db.transaction(async (em) => {
      if (Object.keys(patch).length > 0) {
        // A top-level merge in one statement, so a concurrent change to another setting is kept.
        await this.projectSettings.merge(em, project.id, patch);
      }
      if (patch.require_user_hash !== undefined) {
        await this.projects.announceChange(em, project.id);
      }
      return { settings: await this.readSettings(em, project.id), secret: await hasSigningSecret(em, project.id) };
    });
    return this.answer(project, settings, secret);
  }

  /** The project's settings as stored now, read the way the verifier reads them. */
  private async readSettings(em: EntityManager, projectId: string): Promise<ProjectSettings> {
    const stored = await this.projectSettings.read(em, projectId);
    // The verifier waives the hash whenever require_user_hash is not true, so the answer says the same.
    return { ...stored, require_user_hash: stored.require_user_hash === true };
  }

  private answer(
    project: ProjectRef,
    settings: ProjectSettings,
    hasSecret: boolean,
  ): NotificationSettingsDto | WithMeta<NotificationSettingsDto> {
    const dto: NotificationSettingsDto = {
      require_user_hash: settings.require_user_hash,
      changelog_to_bell_default: settings.changelog_to_bell_default ?? false,
    };
    const off = identityVerificationMeta({ ...project, settings });
    if (off) return new WithMeta(dto, off);
    if (!hasSecret) return new WithMeta(dto, { identity_verification: 'on', warnings: [SIGNING_SECRET_MISSING_WARNING] });
    return dto;
  }
}
