import type { ArgumentMetadata } from '@nestjs/common';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, MaxLength } from 'class-validator';
import { createValidationPipe, findUnstorableText, firstFailure } from './validation.pipe';

describe('validation pipe helpers', () => {
  it('finds NUL characters in nested strings and keys', () => {
    expect(findUnstorableText({ a: 'ok', b: { c: ['x', 'y\u0000'] } })).toBe('b.c.1');
    expect(findUnstorableText({ ['k\u0000']: 1 })).toBe('k\u0000');
    expect(findUnstorableText('bad\u0000')).toBe('body');
    expect(findUnstorableText({ a: 'fine', n: 1, t: true, z: null, emoji: '😀' })).toBeNull();
    expect(findUnstorableText({ email: 'a\ud800@example.com' })).toBe('email');
  });

  it('reports the first failing leaf with a dotted path', () => {
    const errors = [
      { property: 'source', children: [{ property: 'utm_source', constraints: { maxLength: 'utm_source is too long' }, children: [] }] },
    ];
    expect(firstFailure(errors as never)).toEqual({ path: 'source.utm_source', message: 'utm_source is too long' });
  });
});

class PollQuery {
  @IsString()
  @MaxLength(8)
  user_id!: string;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  limit?: number;
}

class TagsQuery {
  @IsOptional()
  @IsString({ each: true })
  tag?: string[];
}

describe('validation pipe: whole queries', () => {
  const query = (metatype: ArgumentMetadata['metatype'], data?: string): ArgumentMetadata => ({ type: 'query', metatype, data });

  it('answers a query that passed before with an equal, fresh DTO: a handler changing its own leaves the next one alone', async () => {
    const pipe = createValidationPipe();
    const validate = jest.spyOn(pipe as unknown as { validate: (...args: unknown[]) => unknown }, 'validate');
    const first = (await pipe.transform({ user_id: 'ada', limit: '5' }, query(PollQuery))) as PollQuery;
    expect(first).toBeInstanceOf(PollQuery);
    expect(first).toEqual({ user_id: 'ada', limit: 5 });
    first.limit = 99;
    const second = (await pipe.transform({ user_id: 'ada', limit: '5' }, query(PollQuery))) as PollQuery;
    expect(second).toBeInstanceOf(PollQuery);
    expect(second).toEqual({ user_id: 'ada', limit: 5 });
    expect(second).not.toBe(first);
    expect(validate).toHaveBeenCalledTimes(1);
    // Another query, or the same one for another class, is validated.
    await pipe.transform({ user_id: 'bob' }, query(PollQuery));
    expect(validate).toHaveBeenCalledTimes(2);
  });

  it('refuses a failing query every time, with the same answer', async () => {
    const pipe = createValidationPipe();
    for (let round = 0; round < 2; round += 1) {
      await expect(pipe.transform({ user_id: 'far-too-long' }, query(PollQuery))).rejects.toMatchObject({
        code: 'VALIDATION_ERROR',
        param: 'user_id',
      });
      await expect(pipe.transform({ user_id: 'ada', extra: '1' }, query(PollQuery))).rejects.toMatchObject({ param: 'extra' });
      await expect(pipe.transform({ user_id: 'a\u0000' }, query(PollQuery))).rejects.toMatchObject({ param: 'user_id' });
    }
  });

  it('keeps no DTO holding an object or array (a copy would share it), and no single named parameter', async () => {
    const pipe = createValidationPipe();
    const validate = jest.spyOn(pipe as unknown as { validate: (...args: unknown[]) => unknown }, 'validate');
    const first = (await pipe.transform({ tag: ['a', 'b'] }, query(TagsQuery))) as TagsQuery;
    first.tag!.push('c');
    expect(await pipe.transform({ tag: ['a', 'b'] }, query(TagsQuery))).toEqual({ tag: ['a', 'b'] });
    expect(validate).toHaveBeenCalledTimes(2);
    expect(await pipe.transform('7', query(Number, 'limit'))).toBe(7);
  });
});
