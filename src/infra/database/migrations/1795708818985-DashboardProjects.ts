import { MigrationInterface, QueryRunner } from 'typeorm';

export class DashboardProjects1795708818985 implements MigrationInterface {
  name = 'DashboardProjects1795708818985';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "contact_erasures" ("id" character varying(32) NOT NULL, "project_id" character varying(32) NOT NULL, "contact_id" character varying(32) NOT NULL, "removed" jsonb NOT NULL, "actor_kind" character varying(16) NOT NULL, "actor_id" character varying(32) NOT NULL, "erased_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_99e787ac08e3eec555a387ebded" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "ix_contact_erasures_project" ON "contact_erasures"  ("project_id", "id") `);
    await queryRunner.query(
      `CREATE TABLE "project_slug_changes" ("id" character varying(32) NOT NULL, "project_id" character varying(32) NOT NULL, "from_slug" character varying(40) NOT NULL, "to_slug" character varying(40) NOT NULL, "counted" boolean NOT NULL, "changed_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_f3162c3c5dff543046a787d8f04" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_project_slug_changes_project_changed" ON "project_slug_changes"  ("project_id", "changed_at") `,
    );
    await queryRunner.query(
      `CREATE TABLE "project_slug_history" ("slug" character varying(40) NOT NULL, "project_id" character varying(32), "released_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_72cfe659e84fd5bc12b1685cfaf" PRIMARY KEY ("slug"))`,
    );
    await queryRunner.query(`CREATE INDEX "ix_project_slug_history_project" ON "project_slug_history"  ("project_id") `);
    await queryRunner.query(`ALTER TABLE "projects" ADD "slug_generated" boolean NOT NULL DEFAULT false`);
    await queryRunner.query(`ALTER TABLE "api_keys" ADD "last_used_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(
      `ALTER TABLE "contact_erasures" ADD CONSTRAINT "fk_contact_erasures_project" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "project_slug_changes" ADD CONSTRAINT "fk_project_slug_changes_project" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "project_slug_history" ADD CONSTRAINT "fk_project_slug_history_project" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "project_slug_history" DROP CONSTRAINT "fk_project_slug_history_project"`);
    await queryRunner.query(`ALTER TABLE "project_slug_changes" DROP CONSTRAINT "fk_project_slug_changes_project"`);
    await queryRunner.query(`ALTER TABLE "contact_erasures" DROP CONSTRAINT "fk_contact_erasures_project"`);
    await queryRunner.query(`ALTER TABLE "api_keys" DROP COLUMN "last_used_at"`);
    await queryRunner.query(`ALTER TABLE "projects" DROP COLUMN "slug_generated"`);
    await queryRunner.query(`DROP INDEX "public"."ix_project_slug_history_project"`);
    await queryRunner.query(`DROP TABLE "project_slug_history"`);
    await queryRunner.query(`DROP INDEX "public"."ix_project_slug_changes_project_changed"`);
    await queryRunner.query(`DROP TABLE "project_slug_changes"`);
    await queryRunner.query(`DROP INDEX "public"."ix_contact_erasures_project"`);
    await queryRunner.query(`DROP TABLE "contact_erasures"`);
  }
}
