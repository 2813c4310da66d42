import { Module } from '@nestjs/common';
import { ContactsModule } from '../contacts/contacts.module';
import { EmailLinksService } from './email-links.service';
import { InvitesService } from './invites.service';
import { SignupsService } from './signups.service';
import { StatsService } from './stats.service';
import { TurnstileVerifier } from './turnstile.verifier';
import { WaitlistCsvService } from './waitlist-csv.service';
import { WaitlistLinksController } from './waitlist-links.controller';
import { WaitlistMailer } from './waitlist-mailer';
import { WaitlistController } from './waitlist.controller';

@Module({
  imports: [ContactsModule],
  controllers: [WaitlistController, WaitlistLinksController],
  providers: [SignupsService, StatsService, InvitesService, EmailLinksService, WaitlistCsvService, WaitlistMailer, TurnstileVerifier],
  exports: [SignupsService],
})
export class WaitlistModule {}
