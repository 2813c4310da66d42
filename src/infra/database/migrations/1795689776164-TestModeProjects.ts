import { MigrationInterface, QueryRunner } from 'typeorm';

export class TestModeProjects1795689776164 implements MigrationInterface {
  name = 'TestModeProjects1795689776164';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "projects" ADD "live_project_id" character varying(32)`);
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_projects_live_project_id" ON "projects"  ("live_project_id") `);
    await queryRunner.query(
      `ALTER TABLE "projects" ADD CONSTRAINT "fk_projects_live_project" FOREIGN KEY ("live_project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    // Test keys issued before test mode reached live data: give each such project its twin (the
    // id is random Crockford characters, the slug the one ProjectsService.testTwinOf derives) and
    // move the test keys there. What they already wrote stays with the live project.
    await queryRunner.query(
      `INSERT INTO "projects" ("id", "account_id", "slug", "name", "plan", "settings", "created_at", "updated_at", "live_project_id")
       SELECT 'prj_' || upper(substr(md5(random()::text || p."id"), 1, 26)), NULL, 'test_' || lower(substr(p."id", 5)),
              p."name", p."plan", p."settings", now(), now(), p."id"
       FROM "projects" p
       WHERE p."live_project_id" IS NULL
         AND EXISTS (SELECT 1 FROM "api_keys" k WHERE k."project_id" = p."id" AND k."mode" = 'test')`,
    );
    await queryRunner.query(
      `UPDATE "api_keys" k SET "project_id" = t."id" FROM "projects" t WHERE t."live_project_id" = k."project_id" AND k."mode" = 'test'`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `UPDATE "api_keys" k SET "project_id" = t."live_project_id" FROM "projects" t WHERE k."project_id" = t."id" AND t."live_project_id" IS NOT NULL`,
    );
    await queryRunner.query(`DELETE FROM "projects" WHERE "live_project_id" IS NOT NULL`);
    await queryRunner.query(`ALTER TABLE "projects" DROP CONSTRAINT "fk_projects_live_project"`);
    await queryRunner.query(`DROP INDEX "public"."uq_projects_live_project_id"`);
    await queryRunner.query(`ALTER TABLE "projects" DROP COLUMN "live_project_id"`);
  }
}
