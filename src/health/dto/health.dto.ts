import { ApiProperty } from '@nestjs/swagger';

export class HealthDto {
  @ApiProperty({ enum: ['ok'], example: 'ok', description: 'The process is up and serving requests.' })
  status: 'ok';

  @ApiProperty({ enum: ['ok'], example: 'ok', description: 'The database answered a query.' })
  database: 'ok';
}
