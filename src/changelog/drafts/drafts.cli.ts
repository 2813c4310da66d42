import type { INestApplicationContext } from '@nestjs/common';
import { readFileSync } from 'node:fs';
import { type Command, JSON_OPTION as json, UsageError, type Values, requireString } from '../../common/cli/command';
import { ApiError } from '../../common/errors/api-error';
import type { ProjectRef } from '../../projects/project-ref';
import { ProjectsService } from '../../projects/projects.service';
import { DraftsService } from './drafts.service';

/**
 * Commit messages from `git log` output. One commit per line (`--format=%s`, `--format=%h%x09%s`,
 * `--oneline`); or, when the text holds NUL characters, one whole message per NUL-terminated
 * record (`--format=%H%x09%B%x00`), so bodies and BREAKING CHANGE footers come along. Blank
 * lines and records are dropped.
 */
export function commitsFromGitLog(text: string): string[] {
  const records = text.includes('\0') ? text.split('\0') : text.split(/\r?\n/);
  return records.map((record) => record.replace(/\r/g, '').trim()).filter((record) => record !== '');
}

async function projectOf(context: INestApplicationContext, values: Values): Promise<ProjectRef> {
  const reference = requireString(values, 'project');
  const project = await context.get(ProjectsService).findByReference(reference);
  if (!project) throw new ApiError('NOT_FOUND', `No project with id or slug "${reference}".`, { param: 'project' });
  return project;
}

async function readInput(values: Values): Promise<string> {
  if (typeof values.file === 'string') {
    try {
      return readFileSync(values.file, 'utf8');
    } catch (error) {
      throw new UsageError(`--file cannot be read: ${(error as Error).message}`);
    }
  }
  // Waiting on a terminal would look like a hang: the input is meant to be piped.
  if (process.stdin.isTTY) throw new UsageError('pipe `git log --format=%h%x09%s <from>..<to>` into this command, or give --file');
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export const CHANGELOG_DRAFT_COMMANDS: Record<string, Command> = {
  'changelog:draft': {
    usage: 'changelog:draft --project <prj_id|slug> [--version <v>] [--dry-run] [--file <path>] [--json]   (git log on stdin)',
    summary: [
      'Drafts a changelog entry from commits, as POST /v1/changelog/drafts does: reads `git log` from stdin (or --file),',
      'one subject per line (--format=%s, --format=%h%x09%s, --oneline) or NUL-separated whole messages (--format=%H%x09%B%x00).',
      'Creates an entry with status draft (never published); --dry-run only prints the draft.',
      'Prints {entry_id (null on a dry run), title, category, skipped, body_markdown}.',
      'Example: git log --format=%h%x09%s v1.3.0..HEAD | npm run cli -- changelog:draft --project acme --version 1.4.0',
    ].join('\n'),
    options: { project: { type: 'string' }, version: { type: 'string' }, 'dry-run': json, file: { type: 'string' }, json },
    async run(context, values) {
      const project = await projectOf(context, values);
      const commits = commitsFromGitLog(await readInput(values));
      if (commits.length === 0) throw new UsageError('no commits on the input: pipe `git log` output into this command');
      const version = typeof values.version === 'string' ? values.version : undefined;
      const { data: draft } = await context
        .get(DraftsService)
        .draftFromCommits(project, { commits, version, dry_run: values['dry-run'] === true });
      return {
        entry_id: draft.entry?.id ?? null,
        title: draft.title,
        category: draft.category,
        skipped: draft.skipped,
        // In text output the markdown starts on its own line.
        body_markdown: values.json === true ? draft.body_markdown : `\n${draft.body_markdown}`,
      };
    },
  },
};
