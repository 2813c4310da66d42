import { Body, Controller, Delete, Get, HttpCode, Patch, Post, Query } from '@nestjs/common';
import { ApiExtraModels, ApiOperation, ApiTags, getSchemaPath } from '@nestjs/swagger';
import type { Caller } from '../../auth/caller';
import { CurrentCaller, CurrentProject } from '../../auth/current.decorators';
import { ApiEnvelope, ApiErrors } from '../../common/http/api-docs';
import { PathId } from '../../common/http/path-param.pipe';
import { Paged, WithMeta } from '../../common/http/reply';
import { Auth } from '../../common/http/route-policy';
import { Idempotent } from '../../idempotency/idempotent.decorator';
import type { ProjectRef } from '../../projects/project-ref';
import { CreateEntryDto } from './dto/create-entry.dto';
import { DeletedDto } from '../shared/dto/deleted.dto';
import { EntryDto, EntryOptionsDto } from './dto/entry.dto';
import { ListEntriesQueryDto } from './dto/list-entries-query.dto';
import { UpdateEntryDto } from './dto/update-entry.dto';
import { EntriesService } from './entries.service';
import { EntryLifecycleService } from './entry-lifecycle.service';

/** `meta` of single-entry answers (see entry-answer.ts). */
const ENTRY_META = {
  entry_options: { $ref: getSchemaPath(EntryOptionsDto) },
  announcement_replaced_entry_id: {
    type: 'string',
    example: 'ce_01JD3Z4Q9X8V7T6S5R4Q3P2N1M',
    description: 'Present when this request ended the announcement of another entry.',
  },
};

@ApiTags('Changelog')
@ApiExtraModels(EntryOptionsDto)
@Controller('v1/changelog/entries')
export class EntriesController {
  constructor(
    private readonly entries: EntriesService,
    private readonly lifecycle: EntryLifecycleService,
  ) {}

  @Post()
  @Auth('secret')
  @Idempotent()
  @ApiOperation({ summary: 'Create an entry: a draft (status "draft"), scheduled (scheduled_at), or published now.' })
  @ApiEnvelope(EntryDto, { status: 201, meta: ENTRY_META })
  @ApiErrors('VALIDATION_ERROR', 'PAYLOAD_TOO_LARGE', 'PLAN_LIMIT_REACHED', 'PLAN_UPGRADE_REQUIRED')
  createEntry(@CurrentProject() project: ProjectRef, @Body() body: CreateEntryDto): Promise<WithMeta<EntryDto>> {
    return this.entries.createEntry(project, body);
  }

  @Get()
  @Auth('publishable')
  @ApiOperation({
    summary: 'List entries, newest first. A publishable key sees only published, public-audience, unexpired entries.',
  })
  @ApiEnvelope(EntryDto, { paged: true })
  @ApiErrors('VALIDATION_ERROR')
  listEntries(
    @CurrentProject() project: ProjectRef,
    @CurrentCaller() caller: Caller,
    @Query() query: ListEntriesQueryDto,
  ): Promise<Paged<EntryDto>> {
    return this.entries.listEntries(project, query, caller.kind);
  }

  @Get(':id')
  @Auth('secret')
  @ApiOperation({ summary: 'One entry, with its other settings in meta.entry_options.' })
  @ApiEnvelope(EntryDto, { meta: ENTRY_META })
  @ApiErrors('NOT_FOUND')
  getEntry(@CurrentProject() project: ProjectRef, @PathId('id', 'ce') id: string): Promise<WithMeta<EntryDto>> {
    return this.entries.getEntry(project, id);
  }

  @Patch(':id')
  @Auth('secret')
  @ApiOperation({
    summary:
      'Update an entry; publish it (status "published"), schedule or unschedule it (scheduled_at). Published entries change only labels, pinned, expires_at and announcement.',
  })
  @ApiEnvelope(EntryDto, { meta: ENTRY_META })
  @ApiErrors(
    'VALIDATION_ERROR',
    'PAYLOAD_TOO_LARGE',
    'NOT_FOUND',
    'CANNOT_EDIT_PUBLISHED',
    'ENTRY_ARCHIVED',
    'PLAN_LIMIT_REACHED',
    'PLAN_UPGRADE_REQUIRED',
  )
  updateEntry(
    @CurrentProject() project: ProjectRef,
    @PathId('id', 'ce') id: string,
    @Body() body: UpdateEntryDto,
  ): Promise<WithMeta<EntryDto>> {
    return this.entries.updateEntry(project, id, body);
  }

  @Delete(':id')
  @Auth('secret')
  @ApiOperation({ summary: 'Delete an entry for good (its place under the plan cap is freed).' })
  @ApiEnvelope(DeletedDto)
  @ApiErrors('NOT_FOUND')
  deleteEntry(@CurrentProject() project: ProjectRef, @PathId('id', 'ce') id: string): Promise<DeletedDto> {
    return this.entries.deleteEntry(project, id);
  }

  @Post(':id/archive')
  @HttpCode(200)
  @Auth('secret')
  @ApiOperation({ summary: 'Archive an entry: it leaves every public surface and its announcement ends.' })
  @ApiEnvelope(EntryDto, { meta: ENTRY_META })
  @ApiErrors('NOT_FOUND')
  archiveEntry(@CurrentProject() project: ProjectRef, @PathId('id', 'ce') id: string): Promise<WithMeta<EntryDto>> {
    return this.lifecycle.archiveEntry(project, id);
  }

  @Post(':id/unarchive')
  @HttpCode(200)
  @Auth('secret')
  @ApiOperation({ summary: 'Return an archived entry to the status it had (a schedule whose time passed publishes now).' })
  @ApiEnvelope(EntryDto, { meta: ENTRY_META })
  @ApiErrors('NOT_FOUND', 'PLAN_LIMIT_REACHED')
  unarchiveEntry(@CurrentProject() project: ProjectRef, @PathId('id', 'ce') id: string): Promise<WithMeta<EntryDto>> {
    return this.lifecycle.unarchiveEntry(project, id);
  }
}
