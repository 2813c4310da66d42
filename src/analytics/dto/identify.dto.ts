import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import { CharLength } from '../../common/validation/char-length';
import { EmailField } from '../../common/validation/email-field';
import { IsFlatRecord } from '../../common/validation/flat-record';

export class IdentifyDto {
  @ApiProperty({ example: 'user_42', minLength: 1, maxLength: 256, description: "The product's own id for this person." })
  @CharLength(1, 256)
  user_id: string;

  @EmailField()
  email: string;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { oneOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }] },
    example: { plan: 'pro', seats: 3 },
    description: 'Details merged into the contact: at most 50 keys of up to 64 characters; values string, number or boolean.',
  })
  @IsOptional()
  @IsFlatRecord()
  details?: Record<string, string | number | boolean>;
}
