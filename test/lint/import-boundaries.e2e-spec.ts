import { join } from 'node:path';
import { ESLint } from 'eslint';

/**
 * The import boundaries of eslint.config.mjs, tried on planted files: `npm run lint` must fail
 * when a layer imports what it may not. (Type-aware rules are off here: the planted files exist
 * only in memory.)
 */
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
    return result.messages.filter((message) => message.ruleId === 'no-restricted-imports').map((message) => message.message);
  }

  it('refuses a feature import in the kernel, at any depth', async () => {
    expect(
      await boundaryErrors('src/common/http/planted.ts', "import { SignupsService } from '../../waitlist/signups.service';\n"),
    ).toEqual([expect.stringContaining('kernel')]);
    expect(await boundaryErrors('src/common/planted.ts', "import { ProjectRef } from '../projects/project-ref';\n")).toHaveLength(1);
    expect(await boundaryErrors('src/config/planted.ts', "import { Database } from '../infra/database/database';\n")).toHaveLength(1);
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

  it('lets the application shell import anything', async () => {
    expect(await boundaryErrors('src/app.planted.ts', "import { WaitlistModule } from './waitlist/waitlist.module';\n")).toEqual([]);
  });

  it('keeps browser code to src/browser/: no package, nothing of the server, at any depth', async () => {
    expect(
      await boundaryErrors('src/browser/changelog/planted.ts', "import { h } from '../shared/dom';\nimport { x } from './x';\n"),
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
