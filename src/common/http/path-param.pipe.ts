import { Param, type PipeTransform } from '@nestjs/common';
import { ApiParam } from '@nestjs/swagger';
import { ApiError } from '../errors/api-error';
import type { ErrorCode } from '../errors/error-catalog';
import { ID_PREFIXES, type IdPrefix, idPattern, isId } from '../ids/ids';
import { ApiErrors } from './api-docs';
import type { RawReply } from './reply';

/**
 * What a path parameter holds: an id of one prefix, a slug, a token, a name from a list. Declared
 * on each parameter (`@PathId`, `@PathParam`), so one pipe refuses every other value before a
 * service, and so before any query, sees it: NUL bytes, controls, another prefix, SQL-ish text.
 */
interface PathParamKind {
  /** Documented in OpenAPI: the pattern or the list of values, and an example. */
  readonly schema: { readonly pattern?: string; readonly enum?: readonly string[]; readonly example: string };
  /** Said when a value is not of this kind. */
  readonly mismatch: string;
  /** What to do instead, when the catalog's remediation of the not-found code does not fit. */
  readonly remediation?: string;
  /** Documented on the parameter, unless the route says more. */
  readonly description?: string;
  matches(value: string): boolean;
}

interface PathParamOptions {
  /** The route's own not-found code (CONTACT_NOT_FOUND, PROJECT_NOT_FOUND); NOT_FOUND by default. */
  notFound?: ErrorCode;
  /** A route that answers pages: the not-found page it shows, instead of the JSON envelope. */
  notFoundPage?: () => RawReply;
  description?: string;
}

/** 'changelogEntry' → 'changelog entry', for messages. */
function nounOf(prefix: IdPrefix): string {
  const name = Object.entries(ID_PREFIXES).find(([, value]) => value === prefix)?.[0] ?? prefix;
  return name.replace(/[A-Z]/g, (letter) => ` ${letter.toLowerCase()}`);
}

/** An id with this prefix (`ce_` and 26 Crockford base32 characters). */
export function idKind(prefix: IdPrefix): PathParamKind {
  const noun = nounOf(prefix);
  return {
    schema: { pattern: idPattern(prefix).source, example: `${prefix}_01JD3Z4Q9X8V7T6S5R4Q3P2N1M` },
    mismatch: `No ${noun} has this id: ${noun} ids are "${prefix}_" and 26 letters and digits.`,
    matches: (value) => isId(prefix, value),
  };
}

/** A value matching `pattern` (anchored). */
export function patternKind(kind: Omit<PathParamKind, 'schema' | 'matches'> & { pattern: RegExp; example: string }): PathParamKind {
  const { pattern, example, ...texts } = kind;
  return { ...texts, schema: { pattern: pattern.source, example }, matches: (value) => pattern.test(value) };
}

/** One of a fixed list of names. */
export function oneOfKind(values: readonly string[], mismatch: string): PathParamKind {
  const known = new Set(values);
  return { schema: { enum: values, example: values[0] }, mismatch, matches: (value) => known.has(value) };
}

/** The one pipe of path parameters: a value of its declared kind passes, anything else is not found. */
export class PathParamPipe implements PipeTransform<unknown, string> {
  constructor(
    readonly name: string,
    readonly kind: PathParamKind,
    private readonly options: PathParamOptions,
  ) {}

  transform(value: unknown): string {
    if (typeof value === 'string' && this.kind.matches(value)) return value;
    // Thrown like an error; the exception filter writes the page as it is.
    if (this.options.notFoundPage) throw this.options.notFoundPage();
    throw new ApiError(this.options.notFound ?? 'NOT_FOUND', this.kind.mismatch, { param: this.name, remediation: this.kind.remediation });
  }
}

const PATH_PARAMS_KEY = 'launch:path-params';

/** The path parameters a handler declares with @PathParam or @PathId (the route inventory test reads them). */
export function declaredPathParams(handler: object): string[] {
  return (Reflect.getMetadata(PATH_PARAMS_KEY, handler) as string[] | undefined) ?? [];
}

/**
 * Reads path parameter `name` through PathParamPipe and documents it: its pattern or values in
 * OpenAPI, and the not-found error a value of another shape answers. A value of the right shape
 * that names nothing is still the service's not-found, so both answers are the same.
 */
export function PathParam(name: string, kind: PathParamKind, options: PathParamOptions = {}): ParameterDecorator {
  const pipe = new PathParamPipe(name, kind, options);
  return (target, key, index) => {
    Param(name, pipe)(target, key, index);
    if (key === undefined) return;
    const descriptor = Object.getOwnPropertyDescriptor(target, key) as PropertyDescriptor;
    const handler = descriptor.value as object;
    Reflect.defineMetadata(PATH_PARAMS_KEY, [...declaredPathParams(handler), name], handler);
    const { pattern, example } = kind.schema;
    const values = kind.schema.enum ? { enum: [...kind.schema.enum] } : {};
    const schema = { type: 'string' as const, ...(pattern ? { pattern } : {}), ...values, example };
    ApiParam({ name, required: true, schema, description: options.description ?? kind.description })(target, key, descriptor);
    if (!options.notFoundPage) ApiErrors(options.notFound ?? 'NOT_FOUND')(target, key, descriptor);
  };
}

/** `@PathParam(name, idKind(prefix))`: the id of one kind of resource. */
export function PathId(name: string, prefix: IdPrefix, options: PathParamOptions = {}): ParameterDecorator {
  return PathParam(name, idKind(prefix), options);
}
