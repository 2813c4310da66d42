import { Body, Controller, Delete, Get, Patch, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentProject } from '../../auth/current.decorators';
import { ApiEnvelope, ApiErrors } from '../../common/http/api-docs';
import { PathId } from '../../common/http/path-param.pipe';
import { Auth } from '../../common/http/route-policy';
import type { ProjectRef } from '../../projects/project-ref';
import { DeletedDto } from '../shared/dto/deleted.dto';
import { CreateLabelDto, LabelDto, UpdateLabelDto } from './dto/label.dto';
import { Idempotent } from '../../idempotency/idempotent.decorator';
import { LabelsService } from './labels.service';

@ApiTags('Changelog')
@Controller('v1/changelog/labels')
export class LabelsController {
  constructor(private readonly labels: LabelsService) {}

  @Get()
  @Auth('secret')
  @ApiOperation({ summary: "The project's labels, by name." })
  @ApiEnvelope(LabelDto, { isArray: true })
  listLabels(@CurrentProject() project: ProjectRef): Promise<LabelDto[]> {
    return this.labels.listLabels(project);
  }

  @Post()
  @Auth('secret')
  @Idempotent()
  @ApiOperation({ summary: 'Create a label; its slug is made from the name when left out.' })
  @ApiEnvelope(LabelDto, { status: 201 })
  @ApiErrors('VALIDATION_ERROR', 'PAYLOAD_TOO_LARGE', 'PLAN_LIMIT_REACHED', 'LABEL_SLUG_TAKEN')
  createLabel(@CurrentProject() project: ProjectRef, @Body() body: CreateLabelDto): Promise<LabelDto> {
    return this.labels.createLabel(project, body);
  }

  @Patch(':id')
  @Auth('secret')
  @ApiOperation({ summary: 'Rename, re-slug or recolour a label.' })
  @ApiEnvelope(LabelDto)
  @ApiErrors('VALIDATION_ERROR', 'PAYLOAD_TOO_LARGE', 'NOT_FOUND', 'LABEL_SLUG_TAKEN')
  updateLabel(@CurrentProject() project: ProjectRef, @PathId('id', 'lbl') id: string, @Body() body: UpdateLabelDto): Promise<LabelDto> {
    return this.labels.updateLabel(project, id, body);
  }

  @Delete(':id')
  @Auth('secret')
  @ApiOperation({ summary: 'Delete a label; it is removed from every entry and subscriber.' })
  @ApiEnvelope(DeletedDto)
  @ApiErrors('NOT_FOUND')
  deleteLabel(@CurrentProject() project: ProjectRef, @PathId('id', 'lbl') id: string): Promise<DeletedDto> {
    return this.labels.deleteLabel(project, id);
  }
}
