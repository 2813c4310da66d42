import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

export class RevenueHistoryQueryDto {
  @ApiPropertyOptional({ minimum: 1, maximum: 36, default: 12, example: 12, description: 'How many months, the current one included.' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(36)
  months?: number;
}
