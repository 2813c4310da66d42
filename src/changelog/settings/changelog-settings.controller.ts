import { Body, Controller, Get, Patch } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentProject } from '../../auth/current.decorators';
import { ApiEnvelope, ApiErrors } from '../../common/http/api-docs';
import { Auth } from '../../common/http/route-policy';
import type { ProjectRef } from '../../projects/project-ref';
import { ChangelogSettingsDto, UpdateChangelogSettingsDto } from './dto/changelog-settings.dto';
import { ChangelogSettingsService } from './changelog-settings.service';

@ApiTags('Changelog')
@Controller('v1/changelog/settings')
export class ChangelogSettingsController {
  constructor(private readonly settings: ChangelogSettingsService) {}

  @Get()
  @Auth('secret')
  @ApiOperation({ summary: "The changelog's settings: the reaction set." })
  @ApiEnvelope(ChangelogSettingsDto)
  getChangelogSettings(@CurrentProject() project: ProjectRef): Promise<ChangelogSettingsDto> {
    return this.settings.getSettings(project);
  }

  @Patch()
  @Auth('secret')
  @ApiOperation({ summary: 'Set the reaction set (fixed names, at most 5, in order; empty switches reactions off).' })
  @ApiEnvelope(ChangelogSettingsDto)
  @ApiErrors('VALIDATION_ERROR', 'PAYLOAD_TOO_LARGE')
  updateChangelogSettings(@CurrentProject() project: ProjectRef, @Body() body: UpdateChangelogSettingsDto): Promise<ChangelogSettingsDto> {
    return this.settings.updateSettings(project, body);
  }
}
