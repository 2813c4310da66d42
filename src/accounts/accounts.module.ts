import { Module } from '@nestjs/common';
import { AccountsService } from './accounts.service';

/**
 * Dashboard accounts (table accounts): the people who own projects, known by the identity
 * provider's subject. Below projects (a project row points at its account) and auth (which signs
 * accounts in and provisions them).
 */
@Module({
  providers: [AccountsService],
  exports: [AccountsService],
})
export class AccountsModule {}
