import * as ts from 'typescript';

/**
 * Data ownership (docs/architecture.md): a table belongs to the module folder holding its entity,
 * and only that module's `*.queries.ts` files name it in SQL. This file reads sources as text (no
 * database, no compiler program) and answers what breaks the rule; the spec beside it runs it on
 * planted sources and on `src/`.
 */

/** One source file: its path relative to the repository root (`src/...`, forward slashes) and its text. */
export interface SourceFile {
  path: string;
  text: string;
}

/**
 * The module a file belongs to: the first folder under `src/`, or `infra/<x>` under `src/infra/`;
 * null for the files at the root of `src/` (and of `src/infra/`), which belong to no module.
 */
export function moduleOf(path: string): string | null {
  const parts = path.split('/');
  if (parts[0] !== 'src') return null;
  if (parts[1] === 'infra') return parts.length > 3 ? `infra/${parts[2]}` : null;
  return parts.length > 2 ? parts[1] : null;
}

/** Table name → owning module, from the `@Entity({ name: '…' })` (or `@Entity('…')`) declarations. */
export function ownerMapOf(sources: readonly SourceFile[]): { owners: Map<string, string>; problems: string[] } {
  const owners = new Map<string, string>();
  const problems: string[] = [];
  for (const source of sources) {
    if (!source.text.includes('@Entity(')) continue;
    for (const table of entityTablesIn(parse(source))) {
      const module = moduleOf(source.path);
      const known = owners.get(table);
      if (module === null) problems.push(`${source.path}: the entity of table ${table} is in no module folder`);
      else if (known !== undefined && known !== module) problems.push(`table ${table} has entities in ${known} and ${module}`);
      else owners.set(table, module);
    }
  }
  return { owners, problems };
}

function entityTablesIn(file: ts.SourceFile): string[] {
  const tables: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isDecorator(node) && ts.isCallExpression(node.expression) && node.expression.expression.getText(file) === 'Entity') {
      const [first] = node.expression.arguments;
      if (first && ts.isStringLiteralLike(first)) tables.push(first.text);
      if (first && ts.isObjectLiteralExpression(first)) {
        for (const property of first.properties) {
          if (ts.isPropertyAssignment(property) && property.name.getText(file) === 'name' && ts.isStringLiteralLike(property.initializer)) {
            tables.push(property.initializer.text);
          }
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return tables;
}

/** Where a piece of SQL text was found: the file and the line it starts on. */
export interface SqlText {
  path: string;
  line: number;
  sql: string;
}

/**
 * The SQL text of a file: in a `*.queries.ts` file every string and template (import paths
 * aside); elsewhere what is passed to a `query(` call (a string, a template, a concatenation, or a
 * constant of the same file holding one) and any other string that holds SQL keywords (in
 * capitals, as the code base writes them: a query-builder condition, a fragment). A template's
 * `${…}` parts stand as `?`: a fragment another module composes in is checked where it is written.
 */
export function sqlTextsOf(source: SourceFile): SqlText[] {
  const everyString = source.path.endsWith('.queries.ts');
  // Most files hold no SQL at all: they are not parsed.
  if (!everyString && !/\bquery\s*[<(]/.test(source.text) && !LOOKS_LIKE_SQL.test(source.text)) return [];
  const file = parse(source);
  const texts: SqlText[] = [];
  const seen = new Set<ts.Node>();
  const add = (node: ts.Node, sql: string) => {
    seen.add(node);
    texts.push({ path: source.path, line: file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1, sql });
  };
  const constants = constantStringsOf(file);
  const skipped = (node: ts.Node) =>
    ts.isImportDeclaration(node) || ts.isExportDeclaration(node) || ts.isImportTypeNode(node) || ts.isLiteralTypeNode(node);
  // First what query( is given: a constant read there is checked there, not again where it is declared.
  const visitCalls = (node: ts.Node): void => {
    if (skipped(node)) return;
    const [first] = isQueryCall(node) ? node.arguments : [];
    if (first !== undefined) {
      const used = new Set<ts.Node>();
      const text = staticTextOf(first, constants, used);
      if (text !== null) {
        add(first, text);
        for (const literal of used) seen.add(literal);
      }
    }
    ts.forEachChild(node, visitCalls);
  };
  const visitStrings = (node: ts.Node): void => {
    if (skipped(node) || seen.has(node)) return;
    if (ts.isStringLiteralLike(node) || ts.isTemplateExpression(node)) {
      const text = staticTextOf(node, constants);
      if (text !== null && (everyString || LOOKS_LIKE_SQL.test(text))) add(node, text);
      return;
    }
    ts.forEachChild(node, visitStrings);
  };
  visitCalls(file);
  visitStrings(file);
  return texts.sort((a, b) => a.line - b.line);
}

// SQL as this code base writes it (keywords in capitals), anywhere in a string: a whole statement or a fragment of one.
const LOOKS_LIKE_SQL =
  /\b(SELECT|INSERT\s+INTO|UPDATE\s+\w+(\s+\w+)?\s+SET|DELETE\s+FROM|JOIN|TRUNCATE|LOCK\s+TABLE)\b|\bFROM\s+\w+(\s+\w+)?\s+WHERE\b/;

function isQueryCall(node: ts.Node): node is ts.CallExpression {
  if (!ts.isCallExpression(node)) return false;
  const callee = node.expression;
  return (ts.isPropertyAccessExpression(callee) && callee.name.text === 'query') || (ts.isIdentifier(callee) && callee.text === 'query');
}

/** `const NAME = '…'` (or a template) declared anywhere in the file, by name. */
function constantStringsOf(file: ts.SourceFile): Map<string, ts.Expression> {
  const constants = new Map<string, ts.Expression>();
  const visit = (node: ts.Node): void => {
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer !== undefined) {
      constants.set(node.name.text, node.initializer);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return constants;
}

/** The text an expression stands for, with `?` for what is not written in the file; null when nothing is. */
function staticTextOf(node: ts.Expression, constants: Map<string, ts.Expression>, used = new Set<ts.Node>(), depth = 0): string | null {
  if (depth > 5) return null;
  used.add(node);
  if (ts.isStringLiteralLike(node)) return node.text;
  if (ts.isTemplateExpression(node)) {
    return node.head.text + node.templateSpans.map((span) => ` ? ${span.literal.text}`).join('');
  }
  if (ts.isParenthesizedExpression(node)) return staticTextOf(node.expression, constants, used, depth + 1);
  if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.PlusToken) {
    const left = staticTextOf(node.left, constants, used, depth + 1);
    const right = staticTextOf(node.right, constants, used, depth + 1);
    return left === null && right === null ? null : `${left ?? ' ? '}${right ?? ' ? '}`;
  }
  if (ts.isIdentifier(node)) {
    const initializer = constants.get(node.text);
    return initializer === undefined ? null : staticTextOf(initializer, constants, used, depth + 1);
  }
  return null;
}

// Keywords after which a FROM list or a single table follows.
const TABLE_LIST_KEYWORDS = new Set(['from', 'join', 'using']);
const SINGLE_TABLE_KEYWORDS = new Set(['into', 'update', 'table', 'truncate']);
// Words that end a FROM item's alias position (the next clause, or a join).
const CLAUSE_WORDS = new Set([
  'where', 'group', 'order', 'having', 'limit', 'offset', 'on', 'join', 'left', 'right', 'inner', 'full', 'cross', 'natural',
  'lateral', 'union', 'except', 'intersect', 'returning', 'set', 'for', 'window', 'values', 'select', 'fetch', 'as', 'with',
]); // prettier-ignore

/**
 * The tables a piece of SQL reads or writes by name: what follows FROM (each item of its list),
 * JOIN, USING, INTO, UPDATE, TABLE and TRUNCATE, schema prefix and quotes removed, lower-cased.
 * String literals and comments are skipped; so is anything in parentheses right after such a
 * keyword (a sub-select, checked on its own as the scan reaches it).
 */
export function tablesNamedIn(sql: string): string[] {
  const tokens = tokenize(sql);
  const tables: string[] = [];
  let i = 0;
  const nameAt = (at: number): { name: string; next: number } | null => {
    let k = at;
    while (tokens[k] === 'only' || tokens[k] === 'lateral') k += 1;
    if (!isIdentifier(tokens[k])) return null;
    let name = tokens[k];
    k += 1;
    if (tokens[k] === '.' && isIdentifier(tokens[k + 1])) {
      name = tokens[k + 1];
      k += 2;
    }
    return { name, next: k };
  };
  while (i < tokens.length) {
    const token = tokens[i];
    i += 1;
    if (SINGLE_TABLE_KEYWORDS.has(token)) {
      const found = nameAt(i);
      if (found) tables.push(found.name);
    } else if (TABLE_LIST_KEYWORDS.has(token)) {
      let at = i;
      for (;;) {
        const found = nameAt(at);
        if (!found) break;
        tables.push(found.name);
        at = found.next;
        if (tokens[at] === 'as') at += 1;
        if (isIdentifier(tokens[at]) && !CLAUSE_WORDS.has(tokens[at])) at += 1;
        if (tokens[at] !== ',') break;
        at += 1;
      }
    }
  }
  return tables;
}

function isIdentifier(token: string | undefined): token is string {
  return token !== undefined && /^[a-z_][a-z0-9_$]*$/.test(token);
}

/** Lower-cased words and single punctuation marks; string literals, dollar quotes and comments dropped, quoted identifiers unquoted. */
function tokenize(sql: string): string[] {
  const tokens: string[] = [];
  const pattern = /--[^\n]*|\/\*[\s\S]*?\*\/|'(?:[^']|'')*'|\$\$[\s\S]*?\$\$|"((?:[^"]|"")*)"|([A-Za-z_][A-Za-z0-9_$]*)|(\S)/g;
  for (const match of sql.matchAll(pattern)) {
    if (match[1] !== undefined) tokens.push(match[1].toLowerCase());
    else if (match[2] !== undefined) tokens.push(match[2].toLowerCase());
    else if (match[3] !== undefined) tokens.push(match[3]);
  }
  return tokens;
}

/**
 * Everything that breaks the rule in `sources`: a `*.queries.ts` file outside a module folder,
 * SQL that names a table outside a `*.queries.ts` file, SQL that names a table of another module,
 * and a TypeORM call given another module's entity class (foreignEntityUsesOf). Tables nobody
 * declares (catalog views, CTE names) are not checked.
 */
export function ownershipViolations(sources: readonly SourceFile[]): string[] {
  const { owners, problems } = ownerMapOf(sources);
  const violations = [...problems];
  for (const source of sources) {
    const module = moduleOf(source.path);
    const isQueries = source.path.endsWith('.queries.ts');
    if (isQueries && module === null) violations.push(`${source.path}: a queries file outside a module folder`);
    for (const text of sqlTextsOf(source)) {
      for (const table of new Set(tablesNamedIn(text.sql))) {
        const owner = owners.get(table);
        if (owner === undefined) continue;
        if (owner !== module) violations.push(`${text.path}:${text.line}: names ${table}, a table of ${owner}`);
        else if (!isQueries) violations.push(`${text.path}:${text.line}: SQL naming ${table} outside a *.queries.ts file`);
      }
    }
  }
  return [...violations, ...foreignEntityUsesOf(sources)];
}

function parse(source: SourceFile): ts.SourceFile {
  return ts.createSourceFile(source.path, source.text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
}

/** Entity class name → owning module, from the `export class XxxEntity` declarations. */
export function entityOwnersOf(sources: readonly SourceFile[]): Map<string, string> {
  const owners = new Map<string, string>();
  for (const source of sources) {
    const module = moduleOf(source.path);
    if (module === null) continue;
    for (const match of source.text.matchAll(/\bexport\s+class\s+(\w+Entity)\b/g)) owners.set(match[1], module);
  }
  return owners;
}

// TypeORM calls that read or write the table of the entity class given first: the entity
// manager's and a repository's, and a query builder's joins and FROM.
const ENTITY_DATA_CALLS = new Set([
  'find', 'findOne', 'findOneOrFail', 'findBy', 'findOneBy', 'count', 'countBy', 'exists', 'existsBy', 'insert', 'update',
  'delete', 'upsert', 'save', 'remove', 'increment', 'decrement', 'createQueryBuilder', 'getRepository',
  'innerJoin', 'leftJoin', 'innerJoinAndSelect', 'leftJoinAndSelect', 'from',
]); // prettier-ignore

/**
 * TypeORM calls given another module's entity class (`em.findOne(OtherEntity, …)`,
 * `qb.innerJoin(OtherEntity, …)`): each reaches that module's table without its service. Entity
 * files (relations name other entities), unit specs and migrations are not read.
 */
export function foreignEntityUsesOf(sources: readonly SourceFile[], owners = entityOwnersOf(sources)): string[] {
  const violations: string[] = [];
  for (const source of sources) {
    const module = moduleOf(source.path);
    if (/\.(entity|spec)\.ts$/.test(source.path) || source.path.includes('/migrations/')) continue;
    if (!/\w+Entity\b/.test(source.text)) continue;
    const file = parse(source);
    const visit = (node: ts.Node): void => {
      if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && ENTITY_DATA_CALLS.has(node.expression.name.text)) {
        const [first] = node.arguments;
        const owner = first !== undefined && ts.isIdentifier(first) ? owners.get(first.text) : undefined;
        if (owner !== undefined && owner !== module) {
          const line = file.getLineAndCharacterOfPosition(first.getStart(file)).line + 1;
          violations.push(`${source.path}:${line}: ${node.expression.name.text}(${first.getText(file)}), an entity of ${owner}`);
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
  }
  return violations;
}
