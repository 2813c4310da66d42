import { MigrationInterface, QueryRunner } from 'typeorm';

export class CustomDomainRecheck1795909216214 implements MigrationInterface {
  name = 'CustomDomainRecheck1795909216214';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "custom_domains" ADD "next_check_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "custom_domains" ADD "failing_since" TIMESTAMP WITH TIME ZONE`);
    // Existing claims began when they were added; existing verified hostnames are re-checked at the first tick.
    await queryRunner.query(`ALTER TABLE "custom_domains" ADD "pending_since" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`UPDATE "custom_domains" SET "pending_since" = "created_at"`);
    await queryRunner.query(`ALTER TABLE "custom_domains" ALTER COLUMN "pending_since" SET NOT NULL`);
    await queryRunner.query(`UPDATE "custom_domains" SET "next_check_at" = now() WHERE "verified_at" IS NOT NULL`);
    await queryRunner.query(
      `CREATE INDEX "ix_custom_domains_next_check" ON "custom_domains"  ("next_check_at") WHERE next_check_at IS NOT NULL`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."ix_custom_domains_next_check"`);
    await queryRunner.query(`ALTER TABLE "custom_domains" DROP COLUMN "pending_since"`);
    await queryRunner.query(`ALTER TABLE "custom_domains" DROP COLUMN "failing_since"`);
    await queryRunner.query(`ALTER TABLE "custom_domains" DROP COLUMN "next_check_at"`);
  }
}
