import { ApiProperty } from '@nestjs/swagger';
import { ProjectDto } from '../../../projects/dto/project.dto';

export class CreatedProjectDto {
  @ApiProperty({ type: ProjectDto, description: 'The new project.' })
  project: ProjectDto;

  @ApiProperty({ example: 'svc_live_4eC39HqLyjWDarjtT1zdp7dcQ2xY8aBk', description: 'The first secret key, shown this once.' })
  secret_key: string;

  @ApiProperty({ example: 'svc_pub_live_9fK2mQ7rT4wX1zB8nC5vD3gH6jL0pS2e', description: 'The first publishable key, shown this once.' })
  publishable_key: string;
}

export class DeletedProjectDto {
  @ApiProperty({ example: 'prj_01JD3Z4Q9X8V7T6S5R4Q3P2N1M' })
  id: string;

  @ApiProperty({ enum: [true], example: true })
  deleted: true;
}
