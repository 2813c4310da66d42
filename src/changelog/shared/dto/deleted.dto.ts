import { ApiProperty } from '@nestjs/swagger';

/** `{id, deleted: true}`: the answer of a DELETE of an entry or a label. */
export class DeletedDto {
  @ApiProperty({ example: 'ce_01JD3Z4Q9X8V7T6S5R4Q3P2N1M' })
  id: string;

  @ApiProperty({ enum: [true], example: true })
  deleted: true;
}
