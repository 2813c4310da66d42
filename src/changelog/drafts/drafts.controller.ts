import { Body, Controller, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentProject } from '../../auth/current.decorators';
import { ApiEnvelope, ApiErrors } from '../../common/http/api-docs';
import type { WithStatus } from '../../common/http/reply';
import { Auth } from '../../common/http/route-policy';
import type { ProjectRef } from '../../projects/project-ref';
import { DraftsService } from './drafts.service';
import { CreateDraftDto } from './dto/create-draft.dto';
import { DraftDto } from './dto/draft.dto';
import { Idempotent } from '../../idempotency/idempotent.decorator';

@ApiTags('Changelog')
@Controller('v1/changelog/drafts')
export class DraftsController {
  constructor(private readonly drafts: DraftsService) {}

  @Post()
  @Auth('secret')
  @Idempotent()
  @ApiOperation({
    summary:
      'Sort commit messages into a changelog draft (Breaking changes, Security, New, Improved, Fixed, Other changes), leaving out housekeeping, merges, reverts and version bumps. Creates an entry with status draft (201), never published; dry_run returns the draft without creating anything (200).',
  })
  @ApiEnvelope(DraftDto, { status: 201, description: 'A draft entry was created (`entry` is its owner view).' })
  @ApiEnvelope(DraftDto, { status: 200, description: 'Dry run: nothing was created (`entry` is null).' })
  @ApiErrors('VALIDATION_ERROR', 'PAYLOAD_TOO_LARGE')
  createDraft(@CurrentProject() project: ProjectRef, @Body() body: CreateDraftDto): Promise<WithStatus<DraftDto>> {
    return this.drafts.draftFromCommits(project, body);
  }
}
