import type { INestApplicationContext } from '@nestjs/common';
import { parseArgs } from 'node:util';
import { ApiKeysService } from '../auth/api-keys.service';
import { ProvisioningService } from '../auth/provisioning.service';
import { ApiError } from '../common/errors/api-error';
import { Database } from '../infra/database/database';
import { PLAN_NAMES, PlanName, isPlanName } from '../projects/plans';
import { ProjectsService } from '../projects/projects.service';
import { WAITLIST_COMMANDS } from '../waitlist/waitlist.cli';
import { type Command, JSON_OPTION as json, UsageError, type Values, requireString } from '../common/cli/command';
import { generateMigration } from './migration-generator';

export interface CliOutput {
  stdout(text: string): void;
  stderr(text: string): void;
}

function requirePlan(values: Values): PlanName {
  const plan = requireString(values, 'plan');
  if (!isPlanName(plan)) throw new UsageError(`--plan must be one of ${PLAN_NAMES.join(', ')} (got "${plan}")`);
  return plan;
}

export const COMMANDS: Record<string, Command> = {
  'project:create': {
    usage: 'project:create --name <name> [--slug <slug>] --plan <free|indie|builder|scale> [--legacy-notifications] [--json]',
    options: { name: { type: 'string' }, slug: { type: 'string' }, plan: { type: 'string' }, 'legacy-notifications': json, json },
    async run(context, values) {
      const name = requireString(values, 'name');
      if (name.length > 100) throw new UsageError('--name must be at most 100 characters');
      const created = await context.get(ProvisioningService).createProjectWithKeys({
        name,
        plan: requirePlan(values),
        slug: typeof values.slug === 'string' ? values.slug : undefined,
        settings: values['legacy-notifications'] ? { require_user_hash: false } : undefined,
      });
      return {
        project_id: created.project.id,
        project_slug: created.project.slug,
        project_name: created.project.name,
        plan: created.project.plan,
        secret_key: created.secretKey,
        publishable_key: created.publishableKey,
      };
    },
  },
  'plan:set': {
    usage: 'plan:set --project <prj_id> --plan <plan> [--json]',
    options: { project: { type: 'string' }, plan: { type: 'string' }, json },
    async run(context, values) {
      const project = await context.get(ProjectsService).setPlan(requireString(values, 'project'), requirePlan(values));
      return { project_id: project.id, plan: project.plan };
    },
  },
  'key:create': {
    usage: 'key:create --project <prj_id> --type <secret|publishable> [--test] [--json]',
    options: { project: { type: 'string' }, type: { type: 'string' }, test: json, json },
    async run(context, values) {
      const type = requireString(values, 'type');
      if (type !== 'secret' && type !== 'publishable') throw new UsageError(`--type must be secret or publishable (got "${type}")`);
      const projectId = requireString(values, 'project');
      if (!(await context.get(ProjectsService).findById(projectId))) throw new ApiError('NOT_FOUND', `No project ${projectId}.`);
      const key = await context
        .get(Database)
        .transaction((em) => context.get(ApiKeysService).createKey(em, projectId, type, values.test ? 'test' : 'live'));
      return { id: key.id, key: key.key, type: key.type };
    },
  },
  'key:revoke': {
    usage: 'key:revoke --key <full key> [--json]',
    options: { key: { type: 'string' }, json },
    async run(context, values) {
      return context.get(ApiKeysService).revokeKey(requireString(values, 'key'));
    },
  },
  migrate: {
    usage: 'migrate [--json]',
    options: { json },
    async run(context) {
      return { applied: context.get(Database).appliedMigrations };
    },
  },
  'migration:generate': {
    usage: 'migration:generate <Name>   (development: writes src/infra/database/migrations/<time>-<Name>.ts)',
    options: {},
    positionals: true,
    async run(context, _values, positionals) {
      const name = positionals[0];
      if (!name || !/^[A-Z][A-Za-z0-9]+$/.test(name)) throw new UsageError('Give the migration a PascalCase name');
      return generateMigration(context.get(Database).dataSource, name);
    },
  },
  ...WAITLIST_COMMANDS,
};

export function usage(): string {
  return ['Usage: npm run cli -- <command> [options]', '', ...Object.values(COMMANDS).map((command) => `  ${command.usage}`)].join('\n');
}

function render(result: Record<string, unknown>, asJson: boolean): string {
  if (asJson) return JSON.stringify(result);
  return Object.entries(result)
    .map(([key, value]) => `${key}: ${typeof value === 'object' ? JSON.stringify(value) : String(value)}`)
    .join('\n');
}

/** Parses the arguments of a command (throws UsageError). */
export function parseCommand(argv: string[]): { command: Command; values: Values; positionals: string[] } {
  const [name, ...rest] = argv;
  const command = name ? COMMANDS[name] : undefined;
  if (!command) throw new UsageError(name ? `Unknown command "${name}"` : 'No command given');
  try {
    const parsed = parseArgs({ args: rest, options: command.options, strict: true, allowPositionals: command.positionals === true });
    return { command, values: parsed.values as Values, positionals: parsed.positionals };
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/** Runs one command against an application context; returns the process exit code. */
export async function runCommand(context: INestApplicationContext, argv: string[], output: CliOutput): Promise<number> {
  try {
    const { command, values, positionals } = parseCommand(argv);
    const result = await command.run(context, values, positionals);
    output.stdout(`${render(result, values.json === true)}\n`);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      output.stderr(`error: ${error.message}\n\n${usage()}\n`);
      return 2;
    }
    if (error instanceof ApiError) {
      output.stderr(`error: ${error.code}: ${error.message}\n`);
      return 1;
    }
    output.stderr(`error: ${(error as Error).message}\n`);
    return 1;
  }
}
