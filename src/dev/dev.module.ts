import { DynamicModule, Module } from '@nestjs/common';
import type { AppConfig } from '../config/app-config';
import { NotificationsModule } from '../notifications/notifications.module';
import { DemoController } from './demo.controller';
import { DemoService } from './demo.service';
import { DevMailController } from './dev-mail.controller';
import { DevMailService } from './dev-mail.service';
import { ProjectsModule } from '../projects/projects.module';
import { AuthModule } from '../auth/auth.module';
import { MailModule } from '../infra/mail/mail.module';

/**
 * Development aids: GET /dev/mail and GET /demo. Registered only with DEV_MAIL on (by default
 * under `npm start` outside production, see app-config.ts); otherwise the routes do not exist at all.
 */
@Module({})
export class DevModule {
  static forRoot(config: AppConfig): DynamicModule {
    if (!config.devMail) return { module: DevModule };
    return {
      module: DevModule,
      imports: [NotificationsModule, ProjectsModule, AuthModule, MailModule],
      controllers: [DevMailController, DemoController],
      providers: [DevMailService, DemoService],
    };
  }
}
