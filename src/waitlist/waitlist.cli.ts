import type { INestApplicationContext } from '@nestjs/common';
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { type Command, JSON_OPTION as json, UsageError, type Values, requireString } from '../common/cli/command';
import { Clock } from '../common/clock/clock';
import { ApiError } from '../common/errors/api-error';
import type { ProjectRef } from '../projects/project-ref';
import { ProjectsService } from '../projects/projects.service';
import { CsvFormatError } from './waitlist-csv';
import { WaitlistCsvService } from './waitlist-csv.service';

async function projectOf(context: INestApplicationContext, values: Values): Promise<ProjectRef> {
  const reference = requireString(values, 'project');
  const project = await context.get(ProjectsService).findByReference(reference);
  if (!project) throw new ApiError('NOT_FOUND', `No project with id or slug "${reference}".`, { param: 'project' });
  return project;
}

function readCsvFile(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new UsageError(`--file cannot be read: ${(error as Error).message}`);
  }
}

function formatError(error: unknown): never {
  if (error instanceof CsvFormatError) throw new ApiError('VALIDATION_ERROR', error.message, { param: 'file' });
  throw error;
}

/** Default export file: waitlist-<slug>-<UTC timestamp>.csv in the working directory. */
function defaultExportFile(project: ProjectRef, now: Date): string {
  return `waitlist-${project.slug}-${now.toISOString().replace(/[-:]/g, '').replace(/\..*$/, '')}Z.csv`;
}

export const WAITLIST_COMMANDS: Record<string, Command> = {
  'waitlist:import': {
    usage: 'waitlist:import --project <prj_id|slug> --file <path.csv> [--json]',
    summary:
      'Imports signups from a CSV file: no events, no emails; known emails are skipped. Prints {project_id, imported, skipped_duplicates, invalid}.',
    options: { project: { type: 'string' }, file: { type: 'string' }, json },
    async run(context, values) {
      const text = readCsvFile(requireString(values, 'file'));
      const project = await projectOf(context, values);
      const report = await context.get(WaitlistCsvService).importCsv(project, text).catch(formatError);
      return { project_id: project.id, ...report };
    },
  },
  'waitlist:export': {
    usage: 'waitlist:export --project <prj_id|slug> [--file <path.csv>] [--json]',
    summary: 'Exports the signups as formula-safe CSV (default file: ./waitlist-<slug>-<time>.csv). Prints {project_id, exported, file}.',
    options: { project: { type: 'string' }, file: { type: 'string' }, json },
    async run(context, values) {
      const project = await projectOf(context, values);
      const { csv, exported } = await context.get(WaitlistCsvService).exportCsv(project);
      const file = resolve(
        typeof values.file === 'string' && values.file ? values.file : defaultExportFile(project, context.get(Clock).now()),
      );
      writeFileSync(file, csv, 'utf8');
      return { project_id: project.id, exported, file };
    },
  },
};
