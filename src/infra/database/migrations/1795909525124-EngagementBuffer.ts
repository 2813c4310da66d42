import { MigrationInterface, QueryRunner } from 'typeorm';

export class EngagementBuffer1795909525124 implements MigrationInterface {
  name = 'EngagementBuffer1795909525124';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "changelog_count_deltas" ("id" BIGSERIAL NOT NULL, "project_id" character varying(32) NOT NULL, "entry_id" character varying(32) NOT NULL, "day" date NOT NULL, "widget_views" integer NOT NULL DEFAULT '0', "page_views" integer NOT NULL DEFAULT '0', "cta_clicks" integer NOT NULL DEFAULT '0', "anonymous_readers" integer NOT NULL DEFAULT '0', CONSTRAINT "PK_f10ecb52010dd01f0570216c6dc" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "changelog_engagement_batches" ("id" character varying(32) NOT NULL, "flushed_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_e67ff3ba0cd66745a752d13c33b" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "ix_changelog_engagement_batches_flushed_at" ON "changelog_engagement_batches"  ("flushed_at") `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."ix_changelog_engagement_batches_flushed_at"`);
    await queryRunner.query(`DROP TABLE "changelog_engagement_batches"`);
    await queryRunner.query(`DROP TABLE "changelog_count_deltas"`);
  }
}
