import { MigrationInterface, QueryRunner } from 'typeorm';

export class CustomDomainClaims1795795327476 implements MigrationInterface {
  name = 'CustomDomainClaims1795795327476';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."uq_custom_domains_hostname"`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_custom_domains_verified_hostname" ON "custom_domains"  ("hostname") WHERE verified_at IS NOT NULL`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_custom_domains_project_hostname" ON "custom_domains"  ("project_id", "hostname") `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."uq_custom_domains_project_hostname"`);
    await queryRunner.query(`DROP INDEX "public"."uq_custom_domains_verified_hostname"`);
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_custom_domains_hostname" ON "custom_domains" USING btree ("hostname") `);
  }
}
