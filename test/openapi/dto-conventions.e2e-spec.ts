import { getMetadataStorage } from 'class-validator';
import { join } from 'node:path';
import { ClassDeclaration, Project } from 'ts-morph';

type DocumentedProperty = { required?: boolean; example?: unknown; examples?: unknown; description?: unknown };

interface DtoProperty {
  /** `ClassName.property (file)`, for the failure messages. */
  where: string;
  hasQuestionToken: boolean;
  /** What @ApiProperty / @ApiPropertyOptional recorded; undefined when the property is not documented. */
  documented: DocumentedProperty | undefined;
  /** The class-validator rules of the property (custom ones such as @CharLength included). */
  rules: string[];
}

const SRC = join(__dirname, '../../src');
// Where @nestjs/swagger keeps what @ApiProperty recorded (its DECORATORS.API_MODEL_PROPERTIES; the
// package exports no path to the constant). A rename there empties `documented` and fails the suite.
const API_MODEL_PROPERTIES = 'swagger/apiModelProperties';

/** Every property of every DTO class, read from the source (the `?`) and from the decorators' metadata. */
function readDtoProperties(): { files: number; properties: DtoProperty[]; problems: string[] } {
  const project = new Project({ tsConfigFilePath: join(__dirname, '../../tsconfig.json'), skipAddingFilesFromTsConfig: true });
  project.addSourceFilesAtPaths([join(SRC, '**/dto/*.ts'), join(SRC, '**/*.dto.ts')]);
  const files = project.getSourceFiles();
  const properties: DtoProperty[] = [];
  const problems: string[] = [];
  for (const file of files) {
    // The decorators ran when the module loaded; their metadata is what the OpenAPI document and the validation pipe use.
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded synchronously inside the describe body, by path
    const exported = require(file.getFilePath()) as Record<string, unknown>;
    for (const declaration of file.getClasses()) {
      const dto = exported[declaration.getName() ?? ''];
      if (typeof dto !== 'function') {
        problems.push(`${declaration.getName()} (${file.getBaseName()}): not exported, so it cannot be checked`);
        continue;
      }
      properties.push(...propertiesOf(declaration, dto as DtoClass, file.getBaseName()));
    }
  }
  return { files: files.length, properties, problems };
}

// A DTO class, whatever its constructor's signature.
type DtoClass = abstract new (...args: never[]) => unknown;

function propertiesOf(declaration: ClassDeclaration, dto: DtoClass, fileName: string): DtoProperty[] {
  const validations = getMetadataStorage().getTargetValidationMetadatas(dto, '', true, false);
  return declaration.getProperties().map((property) => {
    const name = property.getName();
    return {
      where: `${declaration.getName()}.${name} (${fileName})`,
      hasQuestionToken: property.hasQuestionToken(),
      documented: Reflect.getMetadata(API_MODEL_PROPERTIES, dto.prototype, name) as DocumentedProperty | undefined,
      rules: validations.filter((rule) => rule.propertyName === name).map((rule) => rule.name ?? rule.type),
    };
  });
}

/**
 * House rule (STYLE.md 13), over every class in src/**\/dto/*.ts and src/**\/*.dto.ts: a `?` in
 * TypeScript, @ApiPropertyOptional and (on validated input) @IsOptional go together; every property
 * is documented; and every documented property has an example or a non-blank description.
 */
describe('DTO conventions', () => {
  const { files, properties, problems } = readDtoProperties();

  it('finds the DTO files, and every DTO class in them is exported', () => {
    expect(files).toBeGreaterThan(5);
    expect(properties.length).toBeGreaterThan(50);
    expect(problems).toEqual([]);
  });

  it('keeps ? and @ApiPropertyOptional in agreement on documented properties', () => {
    const mismatches = properties
      .filter(({ documented, hasQuestionToken }) => documented && (documented.required === false) !== hasQuestionToken)
      .map(
        ({ where, hasQuestionToken }) =>
          `${where}: ${hasQuestionToken ? '? without @ApiPropertyOptional' : '@ApiPropertyOptional without ?'}`,
      );
    expect(mismatches).toEqual([]);
  });

  it('keeps ? and @IsOptional in agreement on validated (input) properties', () => {
    const mismatches = properties
      .filter(({ rules, hasQuestionToken }) => rules.length > 0 && rules.includes('isOptional') !== hasQuestionToken)
      .map(({ where, hasQuestionToken }) => `${where}: ${hasQuestionToken ? '? without @IsOptional' : '@IsOptional without ?'}`);
    expect(mismatches).toEqual([]);
  });

  it('gives every documented property an example or a description', () => {
    const hasText = (value: unknown) => typeof value === 'string' && value.trim().length > 0;
    const undocumented = properties
      .filter(
        ({ documented }) => documented && documented.example === undefined && !documented.examples && !hasText(documented.description),
      )
      .map(({ where }) => where);
    expect(undocumented).toEqual([]);
  });

  it('documents every property of a DTO', () => {
    expect(properties.filter(({ documented }) => !documented).map(({ where }) => where)).toEqual([]);
  });
});
