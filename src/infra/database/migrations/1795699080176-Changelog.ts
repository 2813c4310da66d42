import { MigrationInterface, QueryRunner } from 'typeorm';

export class Changelog1795699080176 implements MigrationInterface {
  name = 'Changelog1795699080176';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "changelog_entries" ("id" character varying(32) NOT NULL, "project_id" character varying(32) NOT NULL, "title" character varying(200) NOT NULL, "body_markdown" text NOT NULL, "version" character varying(64), "category" character varying(16) NOT NULL, "status" character varying(16) NOT NULL, "status_before_archive" character varying(16), "scheduled_at" TIMESTAMP WITH TIME ZONE, "published_at" TIMESTAMP WITH TIME ZONE, "archived_at" TIMESTAMP WITH TIME ZONE, "cover_image_url" character varying(2048), "cta_label" character varying(80), "cta_url" character varying(2048), "audience" character varying(16) NOT NULL DEFAULT 'public', "segment" jsonb, "pinned" boolean NOT NULL DEFAULT false, "expires_at" TIMESTAMP WITH TIME ZONE, "announcement_style" character varying(16), "announcement_until" TIMESTAMP WITH TIME ZONE, "notify_subscribers" boolean NOT NULL DEFAULT false, "notify_in_app" boolean NOT NULL DEFAULT false, "notify_chat" boolean NOT NULL DEFAULT true, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_fb966e0e6c2c82063cbb728cab3" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_changelog_entries_announcement" ON "changelog_entries"  ("project_id") WHERE announcement_style IS NOT NULL`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_changelog_entries_public" ON "changelog_entries"  ("project_id", "pinned", "published_at", "id") WHERE status = 'published' AND audience = 'public'`,
    );
    await queryRunner.query(`CREATE INDEX "ix_changelog_entries_project_id" ON "changelog_entries"  ("project_id", "id") `);
    await queryRunner.query(
      `CREATE TABLE "changelog_mailings" ("id" character varying(32) NOT NULL, "project_id" character varying(32) NOT NULL, "entry_id" character varying(32) NOT NULL, "cursor" character varying(32), "emails_queued" integer NOT NULL DEFAULT '0', "status" character varying(16) NOT NULL, "attempts" integer NOT NULL DEFAULT '0', "next_attempt_at" TIMESTAMP WITH TIME ZONE NOT NULL, "locked_until" TIMESTAMP WITH TIME ZONE, "last_error" text, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_ee515de71d13d062734d777ef08" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_changelog_mailings_entry" ON "changelog_mailings"  ("entry_id") `);
    await queryRunner.query(`CREATE INDEX "ix_changelog_mailings_due" ON "changelog_mailings"  ("status", "next_attempt_at") `);
    await queryRunner.query(
      `CREATE TABLE "changelog_bell_requests" ("entry_id" character varying(32) NOT NULL, "project_id" character varying(32) NOT NULL, "title" character varying(200) NOT NULL, "url" character varying(2048), "audience" character varying(16) NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, "broadcast_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_8e5381aebba01b2c0f58d71671e" PRIMARY KEY ("entry_id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_changelog_bell_requests_pending" ON "changelog_bell_requests"  ("created_at") WHERE broadcast_at IS NULL`,
    );
    await queryRunner.query(
      `CREATE TABLE "changelog_labels" ("id" character varying(32) NOT NULL, "project_id" character varying(32) NOT NULL, "name" character varying(50) NOT NULL, "slug" character varying(40) NOT NULL, "colour" character varying(16) NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_aa1acf7b521ff87f40ef6bf4fa3" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_changelog_labels_project_slug" ON "changelog_labels"  ("project_id", "slug") `);
    await queryRunner.query(
      `CREATE TABLE "changelog_entry_labels" ("entry_id" character varying(32) NOT NULL, "label_id" character varying(32) NOT NULL, CONSTRAINT "PK_4ab0f3e41735c250f686d7c4959" PRIMARY KEY ("entry_id", "label_id"))`,
    );
    await queryRunner.query(`CREATE INDEX "ix_changelog_entry_labels_label" ON "changelog_entry_labels"  ("label_id", "entry_id") `);
    await queryRunner.query(
      `CREATE TABLE "changelog_interactions" ("id" BIGSERIAL NOT NULL, "project_id" character varying(32) NOT NULL, "entry_id" character varying(32) NOT NULL, "kind" character varying(8) NOT NULL, "surface" character varying(8) NOT NULL, "visitor" character varying(256), "occurred_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_913a77d1e1ca0e69e45e687b2ec" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_changelog_interactions_entry" ON "changelog_interactions"  ("project_id", "entry_id", "kind") `,
    );
    await queryRunner.query(
      `CREATE TABLE "changelog_publications" ("id" character varying(32) NOT NULL, "project_id" character varying(32) NOT NULL, "entry_id" character varying(32) NOT NULL, "scheduled_for" TIMESTAMP WITH TIME ZONE NOT NULL, "status" character varying(16) NOT NULL, "attempts" integer NOT NULL DEFAULT '0', "next_attempt_at" TIMESTAMP WITH TIME ZONE NOT NULL, "locked_until" TIMESTAMP WITH TIME ZONE, "last_error" text, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_57960300072b83a50711b525677" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "ix_changelog_publications_entry" ON "changelog_publications"  ("entry_id") `);
    await queryRunner.query(`CREATE INDEX "ix_changelog_publications_due" ON "changelog_publications"  ("status", "next_attempt_at") `);
    await queryRunner.query(
      `CREATE TABLE "changelog_subscribers" ("id" character varying(32) NOT NULL, "project_id" character varying(32) NOT NULL, "email" character varying(254) NOT NULL, "confirmed" boolean NOT NULL, "confirmed_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_4e036f40b23c54c481b8d9b84d1" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "ix_changelog_subscribers_project_id" ON "changelog_subscribers"  ("project_id", "id") `);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_changelog_subscribers_project_email" ON "changelog_subscribers"  ("project_id", "email") `,
    );
    await queryRunner.query(
      `CREATE TABLE "changelog_subscriber_labels" ("subscriber_id" character varying(32) NOT NULL, "label_id" character varying(32) NOT NULL, CONSTRAINT "PK_58e2b3ab3775ea35db9dbc90539" PRIMARY KEY ("subscriber_id", "label_id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_changelog_subscriber_labels_label" ON "changelog_subscriber_labels"  ("label_id", "subscriber_id") `,
    );
    await queryRunner.query(
      `CREATE TABLE "changelog_subscriber_tokens" ("token_hash" character(64) NOT NULL, "project_id" character varying(32) NOT NULL, "subscriber_id" character varying(32) NOT NULL, "purpose" character varying(16) NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_8ceb9bc50855f81e2a23c9afb8b" PRIMARY KEY ("token_hash"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_changelog_subscriber_tokens_subscriber" ON "changelog_subscriber_tokens"  ("subscriber_id") `,
    );
    await queryRunner.query(
      `ALTER TABLE "changelog_entries" ADD CONSTRAINT "fk_changelog_entries_project" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "changelog_mailings" ADD CONSTRAINT "fk_changelog_mailings_project" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "changelog_mailings" ADD CONSTRAINT "fk_changelog_mailings_entry" FOREIGN KEY ("entry_id") REFERENCES "changelog_entries"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "changelog_bell_requests" ADD CONSTRAINT "fk_changelog_bell_requests_entry" FOREIGN KEY ("entry_id") REFERENCES "changelog_entries"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "changelog_bell_requests" ADD CONSTRAINT "fk_changelog_bell_requests_project" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "changelog_labels" ADD CONSTRAINT "fk_changelog_labels_project" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "changelog_entry_labels" ADD CONSTRAINT "fk_changelog_entry_labels_entry" FOREIGN KEY ("entry_id") REFERENCES "changelog_entries"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "changelog_entry_labels" ADD CONSTRAINT "fk_changelog_entry_labels_label" FOREIGN KEY ("label_id") REFERENCES "changelog_labels"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "changelog_interactions" ADD CONSTRAINT "fk_changelog_interactions_entry" FOREIGN KEY ("entry_id") REFERENCES "changelog_entries"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "changelog_publications" ADD CONSTRAINT "fk_changelog_publications_project" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "changelog_publications" ADD CONSTRAINT "fk_changelog_publications_entry" FOREIGN KEY ("entry_id") REFERENCES "changelog_entries"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "changelog_subscribers" ADD CONSTRAINT "fk_changelog_subscribers_project" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "changelog_subscriber_labels" ADD CONSTRAINT "fk_changelog_subscriber_labels_subscriber" FOREIGN KEY ("subscriber_id") REFERENCES "changelog_subscribers"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "changelog_subscriber_labels" ADD CONSTRAINT "fk_changelog_subscriber_labels_label" FOREIGN KEY ("label_id") REFERENCES "changelog_labels"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "changelog_subscriber_tokens" ADD CONSTRAINT "fk_changelog_subscriber_tokens_project" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "changelog_subscriber_tokens" ADD CONSTRAINT "fk_changelog_subscriber_tokens_subscriber" FOREIGN KEY ("subscriber_id") REFERENCES "changelog_subscribers"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "changelog_subscriber_tokens" DROP CONSTRAINT "fk_changelog_subscriber_tokens_subscriber"`);
    await queryRunner.query(`ALTER TABLE "changelog_subscriber_tokens" DROP CONSTRAINT "fk_changelog_subscriber_tokens_project"`);
    await queryRunner.query(`ALTER TABLE "changelog_subscriber_labels" DROP CONSTRAINT "fk_changelog_subscriber_labels_label"`);
    await queryRunner.query(`ALTER TABLE "changelog_subscriber_labels" DROP CONSTRAINT "fk_changelog_subscriber_labels_subscriber"`);
    await queryRunner.query(`ALTER TABLE "changelog_subscribers" DROP CONSTRAINT "fk_changelog_subscribers_project"`);
    await queryRunner.query(`ALTER TABLE "changelog_publications" DROP CONSTRAINT "fk_changelog_publications_entry"`);
    await queryRunner.query(`ALTER TABLE "changelog_publications" DROP CONSTRAINT "fk_changelog_publications_project"`);
    await queryRunner.query(`ALTER TABLE "changelog_interactions" DROP CONSTRAINT "fk_changelog_interactions_entry"`);
    await queryRunner.query(`ALTER TABLE "changelog_entry_labels" DROP CONSTRAINT "fk_changelog_entry_labels_label"`);
    await queryRunner.query(`ALTER TABLE "changelog_entry_labels" DROP CONSTRAINT "fk_changelog_entry_labels_entry"`);
    await queryRunner.query(`ALTER TABLE "changelog_labels" DROP CONSTRAINT "fk_changelog_labels_project"`);
    await queryRunner.query(`ALTER TABLE "changelog_bell_requests" DROP CONSTRAINT "fk_changelog_bell_requests_project"`);
    await queryRunner.query(`ALTER TABLE "changelog_bell_requests" DROP CONSTRAINT "fk_changelog_bell_requests_entry"`);
    await queryRunner.query(`ALTER TABLE "changelog_mailings" DROP CONSTRAINT "fk_changelog_mailings_entry"`);
    await queryRunner.query(`ALTER TABLE "changelog_mailings" DROP CONSTRAINT "fk_changelog_mailings_project"`);
    await queryRunner.query(`ALTER TABLE "changelog_entries" DROP CONSTRAINT "fk_changelog_entries_project"`);
    await queryRunner.query(`DROP INDEX "public"."ix_changelog_subscriber_tokens_subscriber"`);
    await queryRunner.query(`DROP TABLE "changelog_subscriber_tokens"`);
    await queryRunner.query(`DROP INDEX "public"."ix_changelog_subscriber_labels_label"`);
    await queryRunner.query(`DROP TABLE "changelog_subscriber_labels"`);
    await queryRunner.query(`DROP INDEX "public"."uq_changelog_subscribers_project_email"`);
    await queryRunner.query(`DROP INDEX "public"."ix_changelog_subscribers_project_id"`);
    await queryRunner.query(`DROP TABLE "changelog_subscribers"`);
    await queryRunner.query(`DROP INDEX "public"."ix_changelog_publications_due"`);
    await queryRunner.query(`DROP INDEX "public"."ix_changelog_publications_entry"`);
    await queryRunner.query(`DROP TABLE "changelog_publications"`);
    await queryRunner.query(`DROP INDEX "public"."ix_changelog_interactions_entry"`);
    await queryRunner.query(`DROP TABLE "changelog_interactions"`);
    await queryRunner.query(`DROP INDEX "public"."ix_changelog_entry_labels_label"`);
    await queryRunner.query(`DROP TABLE "changelog_entry_labels"`);
    await queryRunner.query(`DROP INDEX "public"."uq_changelog_labels_project_slug"`);
    await queryRunner.query(`DROP TABLE "changelog_labels"`);
    await queryRunner.query(`DROP INDEX "public"."ix_changelog_bell_requests_pending"`);
    await queryRunner.query(`DROP TABLE "changelog_bell_requests"`);
    await queryRunner.query(`DROP INDEX "public"."ix_changelog_mailings_due"`);
    await queryRunner.query(`DROP INDEX "public"."uq_changelog_mailings_entry"`);
    await queryRunner.query(`DROP TABLE "changelog_mailings"`);
    await queryRunner.query(`DROP INDEX "public"."ix_changelog_entries_project_id"`);
    await queryRunner.query(`DROP INDEX "public"."ix_changelog_entries_public"`);
    await queryRunner.query(`DROP INDEX "public"."uq_changelog_entries_announcement"`);
    await queryRunner.query(`DROP TABLE "changelog_entries"`);
  }
}
