import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsArray, IsIn, IsOptional, Matches } from 'class-validator';
import { PageQueryDto } from '../../common/http/page-query.dto';
import { CONTACT_STAGES, type ContactStage } from '../contact-stages';

export const CONSENT_FILTER = /^[a-z0-9_.-]{1,64}(:(granted|withdrawn))?$/;
export const DETAIL_FILTER = /^[^=]{1,64}=.{0,1000}$/s;

const toList = ({ value }: { value: unknown }) => (value === undefined ? undefined : Array.isArray(value) ? value : [value]);

export class ListContactsQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: CONTACT_STAGES, example: 'waitlist', description: 'Only contacts at this stage.' })
  @IsOptional()
  @IsIn(CONTACT_STAGES)
  stage?: ContactStage;

  @ApiPropertyOptional({
    example: 'changelog_emails',
    description: 'A consent purpose: `purpose` (granted) or `purpose:withdrawn`.',
  })
  @IsOptional()
  @Matches(CONSENT_FILTER, { message: 'consent must be "purpose" or "purpose:granted|withdrawn"' })
  consent?: string;

  @ApiPropertyOptional({
    type: [String],
    example: ['plan=pro'],
    description: 'A detail in the form `key=value`; repeat the parameter to require several.',
  })
  @IsOptional()
  @Transform(toList)
  @IsArray()
  @Matches(DETAIL_FILTER, { each: true, message: 'detail must have the form key=value' })
  detail?: string[];

  @ApiPropertyOptional({ enum: ['true', 'false'], description: '`true`: paying people only; `false`: non-paying only.' })
  @IsOptional()
  @IsIn(['true', 'false'])
  paying?: 'true' | 'false';
}
