import { MiddlewareConsumer, Module, NestModule, RequestMethod } from '@nestjs/common';
import { EmailTemplatesModule } from '../email-templates/email-templates.module';
import { urlencoded } from 'express';
import { ContactsModule } from '../contacts/contacts.module';
import { EmailLinksService } from './email-links.service';
import { InvitesService } from './invites.service';
import { HostedSignupController } from './pages/hosted-signup.controller';
import { HostedSignupService } from './pages/hosted-signup.service';
import { SignupsService } from './signups.service';
import { StatsService } from './stats.service';
import { TurnstileVerifier } from './turnstile.client';
import { WaitlistCsvService } from './waitlist-csv.service';
import { WaitlistLinksController } from './waitlist-links.controller';
import { WaitlistMailer } from './waitlist-mailer.service';
import { WaitlistController } from './waitlist.controller';
import { ProjectsModule } from '../projects/projects.module';
import { EventsModule } from '../events/events.module';
import { MailModule } from '../infra/mail/mail.module';
import { RateLimitModule } from '../infra/rate-limit/rate-limit.module';
import { ErasureRegistryModule } from '../infra/erasure/erasure-registry.module';

// The hosted form has three short fields; nothing bigger is a form of ours.
const HOSTED_FORM_LIMIT = '16kb';

@Module({
  imports: [ContactsModule, EmailTemplatesModule, ProjectsModule, EventsModule, MailModule, RateLimitModule, ErasureRegistryModule],
  controllers: [WaitlistController, WaitlistLinksController, HostedSignupController],
  providers: [
    SignupsService,
    StatsService,
    InvitesService,
    EmailLinksService,
    HostedSignupService,
    WaitlistCsvService,
    WaitlistMailer,
    TurnstileVerifier,
  ],
  exports: [SignupsService, StatsService, InvitesService],
})
export class WaitlistModule implements NestModule {
  // The API takes JSON only; the hosted page's plain HTML form posts form-encoded, on its one route.
  configure(consumer: MiddlewareConsumer): void {
    consumer
      .apply(urlencoded({ extended: false, limit: HOSTED_FORM_LIMIT, parameterLimit: 20 }))
      .forRoutes({ path: 'w/:slug', method: RequestMethod.POST });
  }
}
