import { Module } from '@nestjs/common';
import { DashboardController } from './dashboard.controller';
import { DashboardKeysController } from './keys/dashboard-keys.controller';
import { DashboardKeysService } from './keys/dashboard-keys.service';
import { DashboardProjectsController } from './projects/dashboard-projects.controller';
import { DashboardProjectsService } from './projects/dashboard-projects.service';
import { ProjectsModule } from '../projects/projects.module';
import { AuthModule } from '../auth/auth.module';
import { AccountsModule } from '../accounts/accounts.module';

@Module({
  imports: [ProjectsModule, AuthModule, AccountsModule],
  controllers: [DashboardController, DashboardProjectsController, DashboardKeysController],
  providers: [DashboardProjectsService, DashboardKeysService],
})
export class DashboardModule {}
