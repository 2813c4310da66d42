import { DynamicModule, Module } from '@nestjs/common';
import type { AppConfig } from '../config/app-config';
import { DevMailController } from './dev-mail.controller';
import { DevMailService } from './dev-mail.service';

/** Development aids (GET /dev/mail). With NODE_ENV=production nothing is registered at all. */
@Module({})
export class DevModule {
  static forRoot(config: AppConfig): DynamicModule {
    if (config.production) return { module: DevModule };
    return { module: DevModule, controllers: [DevMailController], providers: [DevMailService] };
  }
}
