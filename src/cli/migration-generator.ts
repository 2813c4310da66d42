import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DataSource } from 'typeorm';

const MIGRATIONS_DIR = join(__dirname, '..', '..', 'src', 'infra', 'database', 'migrations');

function escape(sql: string): string {
  return sql.replace(/\\/g, '\\\\').replace(/`/g, '\\`').replace(/\$\{/g, '\\${');
}

/** The SQL that would bring the migrated database to the entities: empty when nothing drifted. */
export async function pendingSchemaChanges(dataSource: DataSource): Promise<{ up: string[]; down: string[] }> {
  const log = await dataSource.driver.createSchemaBuilder().log();
  return { up: log.upQueries.map((query) => query.query), down: log.downQueries.map((query) => query.query).reverse() };
}

/** Writes a migration from the difference between the entities and the migrated database. */
export async function generateMigration(dataSource: DataSource, name: string): Promise<Record<string, unknown>> {
  const { up, down } = await pendingSchemaChanges(dataSource);
  if (up.length === 0) return { written: null, message: 'No changes: the entities match the migrations.' };
  const timestamp = Date.now();
  const className = `${name}${timestamp}`;
  const body = [
    `import { MigrationInterface, QueryRunner } from 'typeorm';`,
    ``,
    `export class ${className} implements MigrationInterface {`,
    `  name = '${className}';`,
    ``,
    `  async up(queryRunner: QueryRunner): Promise<void> {`,
    ...up.map((sql) => `    await queryRunner.query(\`${escape(sql)}\`);`),
    `  }`,
    ``,
    `  async down(queryRunner: QueryRunner): Promise<void> {`,
    ...down.map((sql) => `    await queryRunner.query(\`${escape(sql)}\`);`),
    `  }`,
    `}`,
    ``,
  ].join('\n');
  const file = join(MIGRATIONS_DIR, `${timestamp}-${name}.ts`);
  writeFileSync(file, body);
  return { written: file, message: 'Read it, then add the class to src/infra/database/migrations.ts.' };
}
