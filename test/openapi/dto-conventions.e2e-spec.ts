import { join } from 'node:path';
import { Decorator, Project, PropertyDeclaration } from 'ts-morph';

const decoratorNames = (property: PropertyDeclaration) => property.getDecorators().map((decorator: Decorator) => decorator.getName());

/**
 * House rule (STYLE.md 13): in a DTO, a `?` in TypeScript, @ApiPropertyOptional and @IsOptional go
 * together; and every documented property has an example or a description.
 */
describe('DTO conventions', () => {
  const project = new Project({ tsConfigFilePath: join(__dirname, '../../tsconfig.json'), skipAddingFilesFromTsConfig: true });
  project.addSourceFilesAtPaths(join(__dirname, '../../src/**/dto/*.ts'));
  const files = project.getSourceFiles();

  it('finds the DTO files', () => {
    expect(files.length).toBeGreaterThan(5);
  });

  it('keeps ?, @ApiPropertyOptional and @IsOptional in agreement on input DTOs', () => {
    const problems: string[] = [];
    for (const file of files) {
      for (const dto of file.getClasses()) {
        for (const property of dto.getProperties()) {
          const decorators = decoratorNames(property);
          // @EmailField documents and validates in one; its `optional: true` stands for both optional decorators.
          const emailField = property.getDecorator('EmailField');
          const emailOptional = /\boptional:\s*true\b/.test(emailField?.getArguments()[0]?.getText() ?? '');
          const isInput =
            emailField !== undefined ||
            decorators.some((name) => name.startsWith('Is') || name === 'Matches' || name === 'Length' || name === 'ValidateNested');
          const optionalDoc = decorators.includes('ApiPropertyOptional') || emailOptional;
          const documented = decorators.includes('ApiProperty') || optionalDoc || emailField !== undefined;
          const optionalCheck = decorators.includes('IsOptional') || emailOptional;
          const question = property.hasQuestionToken();
          const where = `${dto.getName()}.${property.getName()} (${file.getBaseName()})`;
          if (question !== optionalDoc && documented) problems.push(`${where}: ? and @ApiPropertyOptional disagree`);
          if (isInput && question !== optionalCheck) problems.push(`${where}: ? and @IsOptional disagree`);
        }
      }
    }
    expect(problems).toEqual([]);
  });
});
