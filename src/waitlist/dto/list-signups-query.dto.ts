import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { PageQueryDto } from '../../common/http/page-query.dto';
import { EmailField } from '../../common/validation/email-field';
import { SIGNUP_STATUSES, type SignupStatus } from '../entities/waitlist-signup.entity';

export class ListSignupsQueryDto extends PageQueryDto {
  @EmailField({ optional: true, description: 'Exact email, case-insensitive.' })
  email?: string;

  @ApiPropertyOptional({ enum: SIGNUP_STATUSES, example: 'waiting', description: 'Only signups with this status.' })
  @IsOptional()
  @IsIn(SIGNUP_STATUSES)
  status?: SignupStatus;
}
