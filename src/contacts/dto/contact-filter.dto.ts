import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsIn, IsOptional, Matches } from 'class-validator';
import { CONTACT_STAGES, type ContactStage } from '../contact-stages';
import type { ContactFilter } from '../contacts.queries';
import { CONSENT_FILTER, DETAIL_FILTER } from './list-contacts-query.dto';

const toList = ({ value }: { value: unknown }) => (value === undefined || Array.isArray(value) ? value : [value]);

/** The `GET /v1/contacts` filter, as a JSON object. */
export class ContactsFilterDto implements ContactFilter {
  @ApiPropertyOptional({ enum: CONTACT_STAGES, example: 'user' })
  @IsOptional()
  @IsIn(CONTACT_STAGES)
  stage?: ContactStage;

  @ApiPropertyOptional({ example: 'product_updates', description: 'A consent purpose: `purpose` (granted) or `purpose:withdrawn`.' })
  @IsOptional()
  @Matches(CONSENT_FILTER, { message: 'consent must be "purpose" or "purpose:granted|withdrawn"' })
  consent?: string;

  @ApiPropertyOptional({
    oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }],
    example: ['plan=pro'],
    description: 'A detail `key=value`, or a list of them (all must hold).',
  })
  @IsOptional()
  @Transform(toList)
  @IsArray()
  @ArrayMaxSize(20)
  @Matches(DETAIL_FILTER, { each: true, message: 'detail must have the form key=value' })
  detail?: string[];

  @ApiPropertyOptional({ oneOf: [{ type: 'boolean' }, { type: 'string', enum: ['true', 'false'] }], example: true })
  @IsOptional()
  @Transform(({ value }: { value: unknown }) => (typeof value === 'boolean' ? String(value) : value))
  @IsIn(['true', 'false'], { message: 'paying must be true or false' })
  paying?: 'true' | 'false';
}
