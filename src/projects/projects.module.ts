import { Global, Module } from '@nestjs/common';
import { PlanUsage } from './plan-usage';
import { ProjectsController } from './projects.controller';
import { ProjectsService } from './projects.service';
import { SetupCheckService } from './setup-check.service';

@Global()
@Module({
  controllers: [ProjectsController],
  providers: [ProjectsService, PlanUsage, SetupCheckService],
  exports: [ProjectsService, PlanUsage, SetupCheckService],
})
export class ProjectsModule {}
