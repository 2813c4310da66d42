import { Body, Controller, Get, HttpCode, Patch, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentProject } from '../../auth/current.decorators';
import { ApiEnvelope, ApiErrors } from '../../common/http/api-docs';
import { WithMeta } from '../../common/http/reply';
import { Auth } from '../../common/http/route-policy';
import type { ProjectRef } from '../../projects/project-ref';
import { NotificationSettingsDto, UpdateNotificationSettingsDto } from './dto/notification-settings.dto';
import { RotatedSigningSecretDto, SigningSecretDto } from './dto/signing-secret.dto';
import { NotificationSettingsService, SIGNING_SECRET_MISSING_WARNING } from './notification-settings.service';
import { SigningSecretsService } from './signing-secrets.service';

const SETTINGS_META = {
  identity_verification: {
    type: 'string',
    enum: ['on', 'off'],
    description: 'Present with a warning: off, or on without a signing secret.',
  },
  warnings: {
    type: 'array',
    items: {
      type: 'object',
      properties: { code: { type: 'string' }, message: { type: 'string' } },
      required: ['code', 'message'],
      example: SIGNING_SECRET_MISSING_WARNING,
    },
  },
};

/**
 * Identity verification and settings (secret key). Its fixed paths (`settings`, `signing-secret`)
 * must be registered before any `v1/notifications/:id` route, so this controller comes first in
 * the module's list.
 */
@ApiTags('Notifications')
@Controller('v1/notifications')
export class IdentityController {
  constructor(
    private readonly secrets: SigningSecretsService,
    private readonly settings: NotificationSettingsService,
  ) {}

  @Post('signing-secret')
  @Auth('secret')
  @ApiOperation({
    summary:
      'Create the signing secret that user_hash is computed with. Shown once; a second call answers 409 SIGNING_SECRET_ALREADY_SHOWN.',
  })
  @ApiEnvelope(SigningSecretDto, { status: 201 })
  @ApiErrors('SIGNING_SECRET_ALREADY_SHOWN')
  createSigningSecret(@CurrentProject() project: ProjectRef): Promise<SigningSecretDto> {
    return this.secrets.createSecret(project);
  }

  @Post('signing-secret/rotate')
  @HttpCode(200)
  @Auth('secret')
  @ApiOperation({ summary: 'Replace the signing secret. The new one is shown once; the old one verifies for 24 more hours.' })
  @ApiEnvelope(RotatedSigningSecretDto)
  @ApiErrors('NOT_FOUND')
  rotateSigningSecret(@CurrentProject() project: ProjectRef): Promise<RotatedSigningSecretDto> {
    return this.secrets.rotateSecret(project);
  }

  @Get('settings')
  @Auth('secret')
  @ApiOperation({ summary: 'Notification settings; meta warns while identity verification is off or no signing secret exists.' })
  @ApiEnvelope(NotificationSettingsDto, { meta: SETTINGS_META })
  getNotificationSettings(@CurrentProject() project: ProjectRef): Promise<NotificationSettingsDto | WithMeta<NotificationSettingsDto>> {
    return this.settings.getSettings(project);
  }

  @Patch('settings')
  @Auth('secret')
  @ApiOperation({ summary: 'Change require_user_hash and changelog_to_bell_default; fields left out keep their value.' })
  @ApiEnvelope(NotificationSettingsDto, { meta: SETTINGS_META })
  @ApiErrors('VALIDATION_ERROR')
  updateNotificationSettings(
    @CurrentProject() project: ProjectRef,
    @Body() body: UpdateNotificationSettingsDto,
  ): Promise<NotificationSettingsDto | WithMeta<NotificationSettingsDto>> {
    return this.settings.updateSettings(project, body);
  }
}
