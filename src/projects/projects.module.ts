import { Global, Module } from '@nestjs/common';
import { PlanUsage } from './plan-usage';
import { ProjectsController } from './projects.controller';
import { ProjectsService } from './projects.service';
import { PlanGuard } from './requires-feature';
import { SetupCheckService } from './setup-check.service';

@Global()
@Module({
  controllers: [ProjectsController],
  providers: [ProjectsService, PlanUsage, SetupCheckService, PlanGuard],
  exports: [ProjectsService, PlanUsage, SetupCheckService, PlanGuard],
})
export class ProjectsModule {}
