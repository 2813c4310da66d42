import { MiddlewareConsumer, Module, NestModule, RequestMethod } from '@nestjs/common';
import { urlencoded } from 'express';
import { EmailTemplatesModule } from '../../email-templates/email-templates.module';
import { DashboardSubscribersController } from './dashboard-subscribers.controller';
import { SubscriberLinksController } from './subscriber-links.controller';
import { SubscriberLinksService } from './subscriber-links.service';
import { SubscriberMailer } from './subscriber-mailer.service';
import { SubscriberMailings } from './subscriber-mailings.service';
import { SubscribersController } from './subscribers.controller';
import { SubscribersService } from './subscribers.service';
import { ProjectsModule } from '../../projects/projects.module';
import { EventsModule } from '../../events/events.module';
import { MailModule } from '../../infra/mail/mail.module';
import { ErasureRegistryModule } from '../../infra/erasure/erasure-registry.module';
import { SubscriberMailingProcessor } from './subscriber-mailing.processor';

// The topics form: label checkboxes; nothing bigger is a form of ours.
const TOPICS_FORM_LIMIT = '16kb';

/**
 * Changelog subscribers (spec: Changelog subscriber): sign-up and its confirmation, the links of
 * their emails, and the mailing of a published entry, which the entries' publishing hands over.
 */
@Module({
  imports: [EmailTemplatesModule, ProjectsModule, EventsModule, MailModule, ErasureRegistryModule],
  controllers: [SubscribersController, SubscriberLinksController, DashboardSubscribersController],
  providers: [SubscriberMailingProcessor, SubscriberMailings, SubscriberMailer, SubscribersService, SubscriberLinksService],
  exports: [SubscriberMailings],
})
export class ChangelogSubscribersModule implements NestModule {
  // The API takes JSON only; the topics page's plain HTML form posts form-encoded, on its one route.
  configure(consumer: MiddlewareConsumer): void {
    consumer
      .apply(urlencoded({ extended: false, limit: TOPICS_FORM_LIMIT, parameterLimit: 200 }))
      .forRoutes({ path: 'v1/changelog/subscribers/preferences', method: RequestMethod.POST });
  }
}
