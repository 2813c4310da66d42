import { MigrationInterface, QueryRunner } from 'typeorm';

export class RateLimitCounters1795924881097 implements MigrationInterface {
  name = 'RateLimitCounters1795924881097';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "rate_limit_counters" ("key" text NOT NULL, "hits" integer NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_ad665f1998311a7bd0e8265365d" PRIMARY KEY ("key"))`,
    );
    await queryRunner.query(`CREATE INDEX "ix_rate_limit_counters_expires_at" ON "rate_limit_counters"  ("expires_at") `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."ix_rate_limit_counters_expires_at"`);
    await queryRunner.query(`DROP TABLE "rate_limit_counters"`);
  }
}
