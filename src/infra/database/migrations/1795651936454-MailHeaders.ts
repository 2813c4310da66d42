import { MigrationInterface, QueryRunner } from 'typeorm';

export class MailHeaders1795651936454 implements MigrationInterface {
  name = 'MailHeaders1795651936454';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "mail_messages" ADD "headers" jsonb NOT NULL DEFAULT '{}'`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "mail_messages" DROP COLUMN "headers"`);
  }
}
