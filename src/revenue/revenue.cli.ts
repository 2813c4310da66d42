import type { INestApplicationContext } from '@nestjs/common';
import { type Command, JSON_OPTION as json, type Values, requireString } from '../common/cli/command';
import { ApiError } from '../common/errors/api-error';
import type { ProjectRef } from '../projects/project-ref';
import { ProjectsService } from '../projects/projects.service';
import { RevenueConnectionService } from './revenue-connection.service';

async function projectOf(context: INestApplicationContext, values: Values): Promise<ProjectRef> {
  const reference = requireString(values, 'project');
  const project = await context.get(ProjectsService).findByReference(reference);
  if (!project) throw new ApiError('NOT_FOUND', `No project with id or slug "${reference}".`, { param: 'project' });
  return project;
}

export const REVENUE_COMMANDS: Record<string, Command> = {
  'revenue:sync': {
    usage: 'revenue:sync --project <prj_id|slug> [--json]',
    summary:
      "Runs the project's payment-processor sync now, in this process, and waits for it. Prints {project_id, status}: synced, retrying (see last_error on the connection) or failed.",
    options: { project: { type: 'string' }, json },
    // The sync opens the sealed processor key.
    opensSealedValues: true,
    async run(context, values) {
      const project = await projectOf(context, values);
      const result = await context.get(RevenueConnectionService).syncNow(project);
      return { ...result };
    },
  },
};
