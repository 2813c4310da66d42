import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Whether a contact (its `details` and `consents`) matches an entry's segment rule (spec: Segment
 * rule), in SQL so the widget filters and pages in one statement. A detail compares as text (a
 * number 3 equals "3"); `neq` also matches a contact without the detail; a consent matches its
 * purpose's current status (`granted` when the rule leaves it out); no rules match nobody.
 */
const SEGMENT_MATCH_FUNCTION = `CREATE OR REPLACE FUNCTION changelog_segment_matches(rule jsonb, details jsonb, consents jsonb) RETURNS boolean
  LANGUAGE sql IMMUTABLE AS $fn$
  SELECT coalesce(CASE WHEN rule->>'match' = 'any' THEN bool_or(m) ELSE bool_and(m) END, false)
  FROM (
    SELECT coalesce(CASE r->>'type'
      WHEN 'detail' THEN CASE r->>'op'
        WHEN 'eq' THEN details->>(r->>'key') = r->>'value'
        WHEN 'neq' THEN details->>(r->>'key') IS DISTINCT FROM r->>'value'
        WHEN 'in' THEN details->>(r->>'key') IN (SELECT jsonb_array_elements_text(r->'value'))
        WHEN 'exists' THEN details ? (r->>'key')
      END
      WHEN 'consent' THEN consents->(r->>'purpose')->>'status' = coalesce(r->>'status', 'granted')
    END, false) AS m
    FROM jsonb_array_elements(rule->'rules') AS r
  ) AS conditions
$fn$`;

export class ChangelogEngagement1795708756822 implements MigrationInterface {
  name = 'ChangelogEngagement1795708756822';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "changelog_entry_counts" ("entry_id" character varying(32) NOT NULL, "day" date NOT NULL, "project_id" character varying(32) NOT NULL, "widget_views" integer NOT NULL DEFAULT '0', "page_views" integer NOT NULL DEFAULT '0', "cta_clicks" integer NOT NULL DEFAULT '0', "anonymous_readers" integer NOT NULL DEFAULT '0', CONSTRAINT "PK_95009ee2b74d642f8390d8b6b21" PRIMARY KEY ("entry_id", "day"))`,
    );
    await queryRunner.query(`CREATE INDEX "ix_changelog_entry_counts_project_day" ON "changelog_entry_counts"  ("project_id", "day") `);
    await queryRunner.query(
      `CREATE TABLE "changelog_reaction_counts" ("entry_id" character varying(32) NOT NULL, "reaction" character varying(16) NOT NULL, "count" integer NOT NULL, CONSTRAINT "PK_3f2a40d9d33c4cce007d20840f5" PRIMARY KEY ("entry_id", "reaction"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "changelog_reactions" ("entry_id" character varying(32) NOT NULL, "reactor" character varying(260) NOT NULL, "project_id" character varying(32) NOT NULL, "reaction" character varying(16) NOT NULL, "reacted_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_57b48578289aff36ae39309739a" PRIMARY KEY ("entry_id", "reactor"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "changelog_readers" ("entry_id" character varying(32) NOT NULL, "user_id" character varying(256) NOT NULL, "project_id" character varying(32) NOT NULL, "first_seen_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_91984cbf947743b6c86f7382067" PRIMARY KEY ("entry_id", "user_id"))`,
    );
    await queryRunner.query(`CREATE INDEX "ix_changelog_readers_project_user" ON "changelog_readers"  ("project_id", "user_id") `);
    await queryRunner.query(
      `ALTER TABLE "changelog_entry_counts" ADD CONSTRAINT "fk_changelog_entry_counts_entry" FOREIGN KEY ("entry_id") REFERENCES "changelog_entries"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "changelog_reaction_counts" ADD CONSTRAINT "fk_changelog_reaction_counts_entry" FOREIGN KEY ("entry_id") REFERENCES "changelog_entries"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "changelog_reactions" ADD CONSTRAINT "fk_changelog_reactions_entry" FOREIGN KEY ("entry_id") REFERENCES "changelog_entries"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "changelog_readers" ADD CONSTRAINT "fk_changelog_readers_entry" FOREIGN KEY ("entry_id") REFERENCES "changelog_entries"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    // The hosted page's appended views and clicks become daily counters.
    await queryRunner.query(
      `INSERT INTO "changelog_entry_counts" ("entry_id", "day", "project_id", "page_views", "cta_clicks")
       SELECT "entry_id", ("occurred_at" AT TIME ZONE 'UTC')::date, "project_id",
         count(*) FILTER (WHERE "kind" = 'view'), count(*) FILTER (WHERE "kind" = 'click')
       FROM "changelog_interactions" GROUP BY 1, 2, 3`,
    );
    await queryRunner.query(`DROP TABLE "changelog_interactions"`);
    await queryRunner.query(SEGMENT_MATCH_FUNCTION);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP FUNCTION changelog_segment_matches(jsonb, jsonb, jsonb)`);
    await queryRunner.query(
      `CREATE TABLE "changelog_interactions" ("id" BIGSERIAL NOT NULL, "project_id" character varying(32) NOT NULL, "entry_id" character varying(32) NOT NULL, "kind" character varying(8) NOT NULL, "surface" character varying(8) NOT NULL, "visitor" character varying(256), "occurred_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_913a77d1e1ca0e69e45e687b2ec" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_changelog_interactions_entry" ON "changelog_interactions"  ("project_id", "entry_id", "kind") `,
    );
    await queryRunner.query(
      `ALTER TABLE "changelog_interactions" ADD CONSTRAINT "fk_changelog_interactions_entry" FOREIGN KEY ("entry_id") REFERENCES "changelog_entries"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(`ALTER TABLE "changelog_readers" DROP CONSTRAINT "fk_changelog_readers_entry"`);
    await queryRunner.query(`ALTER TABLE "changelog_reactions" DROP CONSTRAINT "fk_changelog_reactions_entry"`);
    await queryRunner.query(`ALTER TABLE "changelog_reaction_counts" DROP CONSTRAINT "fk_changelog_reaction_counts_entry"`);
    await queryRunner.query(`ALTER TABLE "changelog_entry_counts" DROP CONSTRAINT "fk_changelog_entry_counts_entry"`);
    await queryRunner.query(`DROP INDEX "public"."ix_changelog_readers_project_user"`);
    await queryRunner.query(`DROP TABLE "changelog_readers"`);
    await queryRunner.query(`DROP TABLE "changelog_reactions"`);
    await queryRunner.query(`DROP TABLE "changelog_reaction_counts"`);
    await queryRunner.query(`DROP INDEX "public"."ix_changelog_entry_counts_project_day"`);
    await queryRunner.query(`DROP TABLE "changelog_entry_counts"`);
  }
}
