import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Clock } from '../common/clock/clock';
import { newId } from '../common/ids/ids';
import { Database } from '../infra/database/database.service';
import { lockAccountRow } from './accounts.queries';
import { AccountEntity } from './entities/account.entity';

@Injectable()
export class AccountsService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  async findBySubject(subject: string): Promise<AccountEntity | null> {
    return this.db.manager.findOne(AccountEntity, { where: { subject } });
  }

  /** The account by id, read with `em` (a transaction's, or the pool's). */
  findById(em: EntityManager, accountId: string): Promise<AccountEntity | null> {
    return em.findOne(AccountEntity, { where: { id: accountId } });
  }

  /** Inserts a new account row (from `newAccountRow`) in `em`'s transaction. */
  async insertAccount(em: EntityManager, account: AccountEntity): Promise<void> {
    await em.insert(AccountEntity, account);
  }

  /**
   * Holds the account's row lock until the transaction ends: creating and deleting projects count
   * the account's projects first, so concurrent requests count one after another.
   */
  lockAccount(em: EntityManager, accountId: string): Promise<void> {
    return lockAccountRow(em, accountId);
  }

  newAccountRow(subject: string, email: string | null): AccountEntity {
    return Object.assign(new AccountEntity(), { id: newId('acct'), subject, email, createdAt: this.clock.now() });
  }
}
