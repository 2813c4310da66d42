import { ApiProperty } from '@nestjs/swagger';

export class DeletedEndpointDto {
  @ApiProperty({ example: 'we_01JD3Z4Q9X8V7T6S5R4Q3P2N1M' })
  id: string;

  @ApiProperty({ enum: [true], example: true })
  deleted: true;
}
