import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, Length } from 'class-validator';
import { ProjectDto } from '../../projects/dto/project.dto';

export class ProvisionDto {
  @ApiPropertyOptional({ example: 'Acme', minLength: 1, maxLength: 100, description: 'Name of the first project. Default: "My project".' })
  @IsOptional()
  @IsString()
  @Length(1, 100)
  project_name?: string;
}

export class AccountDto {
  @ApiProperty({ example: 'acct_01JD3Z4Q9X8V7T6S5R4Q3P2N1M' })
  id: string;

  @ApiProperty({ type: String, nullable: true, example: 'ada@example.com', description: "From the token's email claim." })
  email: string | null;

  @ApiProperty({ format: 'date-time', example: '2026-11-20T10:00:00.000Z', description: 'When the first sign-in provisioned the account.' })
  created_at: string;
}

export class ProvisionResultDto {
  @ApiProperty({ description: 'True when this call created the account; false when it already existed.' })
  created: boolean;

  @ApiProperty({ type: AccountDto, description: "The dashboard account of the token's subject." })
  account: AccountDto;

  @ApiProperty({ type: ProjectDto, description: 'The first project of the account (Free plan).' })
  project: ProjectDto;

  @ApiProperty({ type: String, nullable: true, example: 'svc_live_3kTq…', description: 'Shown once, on creation; null afterwards.' })
  secret_key: string | null;

  @ApiProperty({ type: String, nullable: true, example: 'svc_pub_live_9xQa…', description: 'Shown once, on creation; null afterwards.' })
  publishable_key: string | null;
}
