import { join } from 'node:path';
import { ESLint } from 'eslint';

/**
 * The import boundaries of eslint.config.mjs, tried on planted files: `npm run lint` must fail
 * when a layer imports what it may not, however the path is written. (Type-aware rules are off
 * here: the planted files exist only in memory; what they import exists.)
 */
const BOUNDARY_RULES = new Set(['import-x/no-restricted-paths', 'import-x/no-unresolved', 'no-restricted-imports']);

describe('import boundaries (npm run lint)', () => {
  const eslint = new ESLint({
    cwd: join(__dirname, '../..'),
    overrideConfig: {
      languageOptions: { parserOptions: { projectService: false } },
      rules: {
        '@typescript-eslint/no-floating-promises': 'off',
        '@typescript-eslint/no-misused-promises': 'off',
        '@typescript-eslint/await-thenable': 'off',
        '@typescript-eslint/no-unused-vars': 'off',
      },
    },
  });

  async function boundaryErrors(filePath: string, source: string): Promise<string[]> {
    const [result] = await eslint.lintText(source, { filePath: join(__dirname, '../..', filePath) });
    return result.messages.filter((message) => BOUNDARY_RULES.has(message.ruleId ?? '')).map((message) => message.message);
  }

  it('refuses a feature import in the kernel, at any depth', async () => {
    expect(
      await boundaryErrors('src/common/http/planted.ts', "import { SignupsService } from '../../waitlist/signups.service';\n"),
    ).toEqual([expect.stringContaining('kernel')]);
    expect(await boundaryErrors('src/common/planted.ts', "import { ProjectRef } from '../projects/project-ref';\n")).toHaveLength(1);
    expect(await boundaryErrors('src/config/planted.ts', "import { Database } from '../infra/database/database';\n")).toHaveLength(1);
  });

  it('resolves the path before matching it: `./../` and `x/../` do not slip past', async () => {
    expect(
      await boundaryErrors('src/common/http/planted.ts', "import { SignupsService } from './../../waitlist/signups.service';\n"),
    ).toEqual([expect.stringContaining('kernel')]);
    expect(await boundaryErrors('src/common/planted.ts', "import { ProjectRef } from '../common/../projects/project-ref';\n")).toEqual([
      expect.stringContaining('kernel'),
    ]);
    expect(
      await boundaryErrors(
        'src/infra/mail/planted.ts',
        "import { ProjectEntity } from '../../infra/../projects/entities/project.entity';\n",
      ),
    ).toEqual([expect.stringContaining('infra/')]);
    expect(
      await boundaryErrors('src/waitlist/planted.ts', "import { ContactEntity } from '../waitlist/../contacts/entities/contact.entity';\n"),
    ).toEqual([expect.stringContaining('never its internals')]);
    expect(
      await boundaryErrors('src/waitlist/planted.ts', "import { upsertContactsByKey } from './../contacts/./contacts.queries';\n"),
    ).toEqual([expect.stringContaining('never its internals')]);
    expect(await boundaryErrors('src/auth/planted.ts', "import { FeedbackService } from './../feedback/feedback.service';\n")).toEqual([
      expect.stringContaining('platform module'),
    ]);
  });

  it('checks files at any depth', async () => {
    expect(
      await boundaryErrors(
        'src/changelog/a/b/c/d/e/f/planted.ts',
        "import { ContactEntity } from '../../../../../../../contacts/entities/contact.entity';\n",
      ),
    ).toEqual([expect.stringContaining('never its internals')]);
    expect(
      await boundaryErrors(
        'src/common/a/b/c/d/e/planted.ts',
        "import { FeedbackService } from '../../../../../../feedback/feedback.service';\n",
      ),
    ).toEqual([expect.stringContaining('kernel')]);
  });

  it('refuses the root files of src/ below the shell: kernel, infra, platform modules and features', async () => {
    expect(await boundaryErrors('src/common/planted.ts', "import { ENTITIES } from '../entities';\n")).toEqual([
      expect.stringContaining('kernel'),
    ]);
    expect(await boundaryErrors('src/config/planted.ts', "import { AppModule } from './../app.module';\n")).toEqual([
      expect.stringContaining('kernel'),
    ]);
    expect(await boundaryErrors('src/infra/database/planted.ts', "import { ENTITIES } from '../../entities';\n")).toEqual([
      expect.stringContaining('infra/'),
    ]);
    expect(await boundaryErrors('src/infra/queue/planted.ts', "import { createHttpApp } from '../../infra/../bootstrap';\n")).toEqual([
      expect.stringContaining('infra/'),
    ]);
    expect(await boundaryErrors('src/infra/planted.ts', "export { AppModule } from '../app.module';\n")).toEqual([
      expect.stringContaining('infra/'),
    ]);
    expect(await boundaryErrors('src/projects/planted.ts', "import type { AppModuleOptions } from '../app.module';\n")).toEqual([
      expect.stringContaining('platform module'),
    ]);
    expect(await boundaryErrors('src/waitlist/planted.ts', "import { ENTITIES } from '../entities';\n")).toEqual([
      expect.stringContaining('application shell'),
    ]);
    expect(await boundaryErrors('src/waitlist/planted.ts', "import { COMMANDS } from '../cli/cli-commands';\n")).toEqual([
      expect.stringContaining('CLI'),
    ]);
  });

  it('refuses an import that resolves to no file, which no boundary could check', async () => {
    expect(await boundaryErrors('src/common/planted.ts', "import { nothing } from '../no-such-folder/nothing';\n")).toEqual([
      expect.stringContaining('Unable to resolve'),
    ]);
  });

  it('refuses platform modules and features in infra', async () => {
    expect(
      await boundaryErrors('src/infra/mail/planted.ts', "import { ProjectEntity } from '../../projects/entities/project.entity';\n"),
    ).toEqual([expect.stringContaining('infra/')]);
  });

  it('refuses features in platform modules', async () => {
    expect(await boundaryErrors('src/auth/planted.ts', "import { FeedbackService } from '../feedback/feedback.service';\n")).toHaveLength(
      1,
    );
    expect(await boundaryErrors('src/projects/planted.ts', "import type { ApiKeysService } from '../auth/api-keys.service';\n")).toEqual(
      [],
    );
  });

  it("lets a feature use another feature's module, services and DTOs, never its internals", async () => {
    const allowed = [
      "import { ContactsService } from '../contacts/contacts.service';",
      "import { ContactsModule } from '../contacts/contacts.module';",
      "import { ContactDto } from '../contacts/dto/contact.dto';",
      "import { ApiError } from '../common/errors/api-error';",
      "import { ProjectRef } from '../projects/project-ref';",
    ].join('\n');
    expect(await boundaryErrors('src/waitlist/planted.ts', `${allowed}\n`)).toEqual([]);
    expect(
      await boundaryErrors('src/waitlist/planted.ts', "import { ContactEntity } from '../contacts/entities/contact.entity';\n"),
    ).toEqual([expect.stringContaining('never its internals')]);
    expect(
      await boundaryErrors('src/feedback/dto/planted.ts', "import { upsertContactsByKey } from '../../contacts/contacts.queries';\n"),
    ).toHaveLength(1);
  });

  it("lets a feature reach a sub-module's services, and mcp/ those inside use-case folders; never entities or queries", async () => {
    expect(
      await boundaryErrors(
        'src/mcp/tools/planted.ts',
        "import { EntriesService } from '../../changelog/entries/entries.service';\nimport { CreateNotificationDto } from '../../notifications/sending/dto/create-notification.dto';\n",
      ),
    ).toEqual([]);
    expect(
      await boundaryErrors('src/mcp/tools/planted.ts', "import { isPublishedEntry } from '../../changelog/entries/entries.queries';\n"),
    ).toEqual([expect.stringContaining('never its internals')]);
    expect(
      await boundaryErrors('src/waitlist/planted.ts', "import { EntriesService } from '../changelog/entries/entries.service';\n"),
    ).toEqual([]);
    expect(
      await boundaryErrors('src/waitlist/planted.ts', "import { isPublishedEntry } from '../changelog/entries/entries.queries';\n"),
    ).toEqual([expect.stringContaining('never its internals')]);
  });

  it('lets the application shell import anything', async () => {
    expect(await boundaryErrors('src/app.planted.ts', "import { WaitlistModule } from './waitlist/waitlist.module';\n")).toEqual([]);
    expect(
      await boundaryErrors(
        'src/cli/planted.ts',
        "import { ContactEntity } from '../contacts/entities/contact.entity';\nimport { ENTITIES } from '../entities';\n",
      ),
    ).toEqual([]);
  });

  it('keeps browser code to src/browser/: no package, nothing of the server, at any depth', async () => {
    expect(
      await boundaryErrors(
        'src/browser/changelog/planted.ts',
        "import { h } from '../shared/dom';\nimport { clientId } from './storage';\n",
      ),
    ).toEqual([]);
    expect(await boundaryErrors('src/browser/changelog/panel/planted.ts', "import { h } from '../../shared/dom';\n")).toEqual([]);
    expect(await boundaryErrors('src/browser/changelog/planted.ts', "import { marked } from 'marked';\n")).toEqual([
      expect.stringContaining('no runtime dependencies'),
    ]);
    expect(await boundaryErrors('src/browser/changelog/planted.ts', "import { ApiError } from '../../common/errors/api-error';\n")).toEqual(
      [expect.stringContaining('only from src/browser/')],
    );
    expect(
      await boundaryErrors('src/browser/changelog/panel/planted.ts', "import { ERRORS } from '../../../common/errors/error-catalog';\n"),
    ).toHaveLength(1);
    expect(
      await boundaryErrors('src/browser/changelog/planted.ts', "import { ERRORS } from '../shared/../../common/errors/error-catalog';\n"),
    ).toEqual([expect.stringContaining('only from src/browser/')]);
    expect(await boundaryErrors('src/browser/shared/planted.ts', "import { ENTITIES } from '../../entities';\n")).toEqual([
      expect.stringContaining('only from src/browser/'),
    ]);
  });

  it('refuses code from strings, markup from strings and inline styles in browser code', async () => {
    const source = [
      'export function planted(element: HTMLElement, value: string): unknown {',
      '  element.innerHTML = value;',
      "  element.insertAdjacentHTML('beforeend', value);",
      "  element.style.color = 'red';",
      '  document.write(value);',
      "  return [eval(value), new Function(value), setTimeout('run()', 1)];",
      '}',
    ].join('\n');
    const [result] = await eslint.lintText(source, { filePath: join(__dirname, '../..', 'src/browser/shared/planted.ts') });
    expect(result.messages.map((message) => message.ruleId)).toEqual([
      'no-restricted-properties',
      'no-restricted-properties',
      'no-restricted-properties',
      'no-restricted-properties',
      'no-eval',
      'no-new-func',
      'no-implied-eval',
    ]);
  });
});
