import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { PageQueryDto } from '../../common/http/page-query.dto';
import { SIGNUP_STATUSES, type SignupStatus } from '../entities/waitlist-signup.entity';

export class ListSignupsQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ example: 'ada@example.com', maxLength: 254, description: 'Exact email, case-insensitive.' })
  @IsOptional()
  @IsString()
  @MaxLength(254)
  email?: string;

  @ApiPropertyOptional({ enum: SIGNUP_STATUSES, example: 'waiting', description: 'Only signups with this status.' })
  @IsOptional()
  @IsIn(SIGNUP_STATUSES)
  status?: SignupStatus;
}
