import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentProject } from '../../auth/current.decorators';
import { ApiEnvelope, ApiErrors } from '../../common/http/api-docs';
import { PathId } from '../../common/http/path-param.pipe';
import type { WithMeta } from '../../common/http/reply';
import { Auth } from '../../common/http/route-policy';
import type { ProjectRef } from '../../projects/project-ref';
import { RequiresFeature } from '../../projects/requires-feature';
import { AfterReadingDto } from './dto/after-reading.dto';
import { EntryStatsDto, LatestStatsQueryDto, STATS_META } from './dto/entry-stats.dto';
import { EntryStatsService } from './entry-stats.service';

/** Whether the changelog is read (spec: Per-entry numbers, After reading): secret key only. */
@ApiTags('Changelog')
@Controller('v1/changelog')
export class StatsController {
  constructor(private readonly stats: EntryStatsService) {}

  @Get('stats')
  @Auth('secret')
  @ApiOperation({
    summary: 'Per-entry numbers of the latest published entries, newest first (readers, clicks and feedback: Indie and up).',
  })
  @ApiEnvelope(EntryStatsDto, { isArray: true, meta: STATS_META })
  @ApiErrors('VALIDATION_ERROR')
  latestStats(
    @CurrentProject() project: ProjectRef,
    @Query() query: LatestStatsQueryDto,
  ): Promise<EntryStatsDto[] | WithMeta<EntryStatsDto[]>> {
    return this.stats.latestStats(project, query);
  }

  @Get('entries/:id/stats')
  @Auth('secret')
  @ApiOperation({ summary: "An entry's numbers: views, reactions, readers, button clicks, feedback (the last three: Indie and up)." })
  @ApiEnvelope(EntryStatsDto, { meta: STATS_META })
  @ApiErrors('NOT_FOUND')
  entryStats(@CurrentProject() project: ProjectRef, @PathId('id', 'ce') entryId: string): Promise<EntryStatsDto | WithMeta<EntryStatsDto>> {
    return this.stats.entryStats(project, entryId);
  }

  @Get('entries/:id/after-reading')
  @Auth('secret')
  @RequiresFeature('after_reading')
  @ApiOperation({ summary: 'Readers against non-readers over the 14 days after publication (Builder).' })
  @ApiEnvelope(AfterReadingDto)
  @ApiErrors('NOT_FOUND', 'ENTRY_NOT_PUBLISHED')
  afterReading(@CurrentProject() project: ProjectRef, @PathId('id', 'ce') entryId: string): Promise<AfterReadingDto> {
    return this.stats.afterReading(project, entryId);
  }
}
