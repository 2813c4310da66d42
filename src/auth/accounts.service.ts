import { Injectable } from '@nestjs/common';
import { Clock } from '../common/clock/clock';
import { newId } from '../common/ids/ids';
import { Database } from '../infra/database/database';
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

  newAccountRow(subject: string, email: string | null): AccountEntity {
    return Object.assign(new AccountEntity(), { id: newId('acct'), subject, email, createdAt: this.clock.now() });
  }
}
