import { DynamicModule, Module } from '@nestjs/common';
import type { AppConfig } from '../config/app-config';
import { DevMailController } from './dev-mail.controller';
import { DevMailService } from './dev-mail.service';

/**
 * Development aids (GET /dev/mail). Registered only with DEV_MAIL on (by default under `npm start`
 * outside production, see app-config.ts); otherwise the route does not exist at all.
 */
@Module({})
export class DevModule {
  static forRoot(config: AppConfig): DynamicModule {
    if (!config.devMail) return { module: DevModule };
    return { module: DevModule, controllers: [DevMailController], providers: [DevMailService] };
  }
}
