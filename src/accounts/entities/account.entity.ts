import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** A dashboard user, known by the identity provider's subject (`sub` claim). */
@Entity({ name: 'accounts' })
export class AccountEntity {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  id: string;

  @Index('uq_accounts_subject', { unique: true })
  @Column({ type: 'varchar', length: 255 })
  subject: string;

  @Column({ type: 'varchar', length: 254, nullable: true })
  email: string | null;

  @Column({ type: 'timestamptz' })
  createdAt: Date;
}
