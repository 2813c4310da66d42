import { MiddlewareConsumer, Module, NestModule, RequestMethod } from '@nestjs/common';
import { urlencoded } from 'express';
import { DashboardSubscribersController } from './subscribers/dashboard-subscribers.controller';
import { SubscriberLinksController } from './subscribers/subscriber-links.controller';
import { SubscriberLinksService } from './subscribers/subscriber-links.service';
import { SubscriberMailer } from './subscribers/subscriber-mailer';
import { SubscriberMailings } from './subscribers/subscriber-mailings';
import { SubscribersController } from './subscribers/subscribers.controller';
import { SubscribersService } from './subscribers/subscribers.service';

// The topics form: label checkboxes; nothing bigger is a form of ours.
const TOPICS_FORM_LIMIT = '16kb';

/**
 * The changelog (spec: Changelog): entries and their lifecycle, labels, settings, the public
 * surfaces (JSON, hosted page, feeds), subscribers and their emails, drafts from commits.
 */
@Module({
  imports: [],
  controllers: [SubscribersController, SubscriberLinksController, DashboardSubscribersController],
  providers: [SubscriberMailings, SubscriberMailer, SubscribersService, SubscriberLinksService],
  exports: [],
})
export class ChangelogModule implements NestModule {
  // The API takes JSON only; the topics page's plain HTML form posts form-encoded, on its one route.
  configure(consumer: MiddlewareConsumer): void {
    consumer
      .apply(urlencoded({ extended: false, limit: TOPICS_FORM_LIMIT, parameterLimit: 200 }))
      .forRoutes({ path: 'v1/changelog/subscribers/preferences', method: RequestMethod.POST });
  }
}
