import type { INestApplicationContext } from '@nestjs/common';
import { ApiKeysService } from '../auth/api-keys.service';
import { ProvisioningService } from '../auth/provisioning.service';
import { type Command, JSON_OPTION as json, UsageError, type Values, requireString } from '../common/cli/command';
import { ApiError } from '../common/errors/api-error';
import { Database } from '../infra/database/database.service';
import { PLAN_NAMES, PlanName, isPlanName } from '../projects/plans';
import type { ProjectRef } from '../projects/project-ref';
import { ProjectsService } from '../projects/projects.service';

function requirePlan(values: Values): PlanName {
  const plan = requireString(values, 'plan');
  if (!isPlanName(plan)) throw new UsageError(`--plan must be one of ${PLAN_NAMES.join(', ')} (got "${plan}")`);
  return plan;
}

// A project starts where a signup through the dashboard starts: on the free plan.
const DEFAULT_PLAN: PlanName = 'free';

/** Every `--project` takes a project id or its slug (CONTRACT.md). */
async function requireProject(context: INestApplicationContext, values: Values): Promise<ProjectRef> {
  const reference = requireString(values, 'project');
  const project = await context.get(ProjectsService).findByReference(reference);
  if (!project) throw new ApiError('NOT_FOUND', `No project with id or slug "${reference}".`, { param: 'project' });
  return project;
}

/** Projects and their keys. */
export const PROJECT_COMMANDS: Record<string, Command> = {
  'project:create': {
    usage: 'project:create --name <name> [--slug <slug>] [--plan <free|indie|builder|scale>] [--legacy-notifications] [--json]',
    summary:
      'Creates a project with its first secret and publishable keys, shown once. Without --plan it starts on free (a note on stderr says so). --legacy-notifications starts it with require_user_hash off.\nPrints {project_id, project_slug, project_name, plan, secret_key, publishable_key}.',
    options: { name: { type: 'string' }, slug: { type: 'string' }, plan: { type: 'string' }, 'legacy-notifications': json, json },
    async run(context, values) {
      const name = requireString(values, 'name');
      if (name.length > 100) throw new UsageError('--name must be at most 100 characters');
      const created = await context.get(ProvisioningService).createProjectWithKeys({
        name,
        plan: values.plan === undefined ? DEFAULT_PLAN : requirePlan(values),
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
    notes: (values) =>
      values.plan === undefined
        ? [`no --plan given: the project starts on ${DEFAULT_PLAN}; plan:set --project <slug> --plan <plan> changes it`]
        : [],
  },
  'project:list': {
    usage: 'project:list [--json]',
    summary: 'Lists the live projects, oldest first. Prints {projects: [{project_id, project_slug, project_name, plan}]}.',
    options: { json },
    async run(context) {
      const projects = await context.get(ProjectsService).listLiveProjects();
      return {
        projects: projects.map((project) => ({
          project_id: project.id,
          project_slug: project.slug,
          project_name: project.name,
          plan: project.plan,
        })),
      };
    },
  },
  'plan:set': {
    usage: 'plan:set --project <prj_id|slug> --plan <free|indie|builder|scale> [--json]',
    summary: "Changes a project's plan (its test-mode twin follows). Prints {project_id, plan}.",
    options: { project: { type: 'string' }, plan: { type: 'string' }, json },
    async run(context, values) {
      const plan = requirePlan(values);
      const project = await context.get(ProjectsService).setPlan((await requireProject(context, values)).id, plan);
      return { project_id: project.id, plan: project.plan };
    },
  },
  'key:create': {
    usage: 'key:create --project <prj_id|slug> --type <secret|publishable> [--test] [--json]',
    summary:
      "Issues a key, shown once. --test issues a svc_test_ key of the project's test-mode twin, whose data is separate from live data.\nPrints {id, key, type}.",
    options: { project: { type: 'string' }, type: { type: 'string' }, test: json, json },
    async run(context, values) {
      const type = requireString(values, 'type');
      if (type !== 'secret' && type !== 'publishable') throw new UsageError(`--type must be secret or publishable (got "${type}")`);
      const project = await requireProject(context, values);
      const mode = values.test ? 'test' : 'live';
      const key = await context.get(Database).transaction((em) => context.get(ApiKeysService).createKey(em, project.id, type, mode));
      return { id: key.id, key: key.key, type: key.type };
    },
  },
  'key:import': {
    usage: 'key:import --project <prj_id|slug> --key <sk_live_…> [--json]',
    summary: 'Keeps a secret key issued under the legacy sk_live_ prefix working; only its hash is stored. Prints {id, type}.',
    options: { project: { type: 'string' }, key: { type: 'string' }, json },
    async run(context, values) {
      const key = requireString(values, 'key');
      const project = await requireProject(context, values);
      const imported = await context.get(Database).transaction((em) => context.get(ApiKeysService).importKey(em, project.id, key));
      return { id: imported.id, type: imported.type };
    },
  },
  'key:list': {
    usage: 'key:list --project <prj_id|slug> [--json]',
    summary:
      'Lists the keys of a project and of its test-mode twin, newest first, never a full key. Prints {keys: [{id, type, prefix, last_four, revoked}]}.',
    options: { project: { type: 'string' }, json },
    async run(context, values) {
      const keys = await context.get(ApiKeysService).listKeys(await requireProject(context, values));
      return {
        keys: keys.map((key) => ({
          id: key.id,
          type: key.type,
          prefix: key.prefix,
          last_four: key.lastFour,
          revoked: key.revokedAt !== null,
        })),
      };
    },
  },
  'key:revoke': {
    usage: 'key:revoke --key <full key> [--json]',
    summary: 'Revokes a key; every running server refuses it from its next request on. Prints {id, revoked: true}.',
    options: { key: { type: 'string' }, json },
    async run(context, values) {
      return context.get(ApiKeysService).revokeKey(requireString(values, 'key'));
    },
  },
};
