import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, Length } from 'class-validator';

const SLUG_DOC =
  '1 to 40 lowercase letters, digits and hyphens (else 422 INVALID_SLUG); not in use, not reserved and not released by another project in the last 30 days (else 409 SLUG_TAKEN).';

export class CreateProjectDto {
  @ApiProperty({ example: 'Acme', minLength: 1, maxLength: 100 })
  @IsString()
  @Length(1, 100)
  name!: string;

  @ApiPropertyOptional({ example: 'acme', description: `${SLUG_DOC} Default: derived from the name.` })
  @IsOptional()
  @IsString()
  slug?: string;
}

export class UpdateProjectDto {
  @ApiPropertyOptional({ example: 'Acme Cloud', minLength: 1, maxLength: 100 })
  @IsOptional()
  @IsString()
  @Length(1, 100)
  name?: string;

  @ApiPropertyOptional({
    example: 'acme-cloud',
    description: `${SLUG_DOC} At most two changes per 30 days (429 SLUG_CHANGE_LIMIT_REACHED); the first rename away from the generated slug is free. The old slug redirects to the new one.`,
  })
  @IsOptional()
  @IsString()
  slug?: string;
}
