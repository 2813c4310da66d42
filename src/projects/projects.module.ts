import { Module } from '@nestjs/common';
import { PlanUsage } from './plan-usage.service';
import { ProjectSettingsService } from './project-settings.service';
import { ProjectsService } from './projects.service';
import { SetupCheckService } from './setup-check.service';
import { ProjectSlugsService } from './slug-history/project-slugs.service';

@Module({
  providers: [ProjectsService, ProjectSettingsService, ProjectSlugsService, PlanUsage, SetupCheckService],
  exports: [ProjectsService, ProjectSettingsService, ProjectSlugsService, PlanUsage, SetupCheckService],
})
export class ProjectsModule {}
