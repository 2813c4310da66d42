import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, Length } from 'class-validator';
import { PageQueryDto } from '../../../common/http/page-query.dto';

/** `GET /v1/changelog/subscribers`. */
export class ListSubscribersQueryDto extends PageQueryDto {
  @ApiPropertyOptional({
    example: 'api',
    minLength: 1,
    maxLength: 40,
    description: 'Only subscribers who chose this label (people who follow everything are left out). An unknown slug is VALIDATION_ERROR.',
  })
  @IsOptional()
  @IsString()
  @Length(1, 40)
  label?: string;
}
