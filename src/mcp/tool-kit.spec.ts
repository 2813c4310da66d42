import { ApiError } from '../common/errors/api-error';
import { Paged, WithMeta, WithStatus } from '../common/http/reply';
import { errorResult, previewResult, structuredAnswer } from './tool-kit';

describe('structuredAnswer', () => {
  it('turns a page into {items, next_cursor} with its other meta beside them', () => {
    expect(structuredAnswer(new Paged([{ id: 'a' }], 'next', { total: 3 }))).toEqual({
      items: [{ id: 'a' }],
      next_cursor: 'next',
      total: 3,
    });
  });

  it('answers an unpaged list with next_cursor null, and the data of WithMeta and WithStatus', () => {
    expect(structuredAnswer([{ id: 'a' }])).toEqual({ items: [{ id: 'a' }], next_cursor: null });
    expect(structuredAnswer(new WithMeta({ id: 'b' }, { extra: 1 }))).toEqual({ id: 'b' });
    expect(structuredAnswer(new WithStatus({ id: 'c' }, 201))).toEqual({ id: 'c' });
  });
});

describe('errorResult', () => {
  it('carries the REST error object and one line a model reads first', () => {
    const result = errorResult(new ApiError('NOT_FOUND', 'No changelog entry ce_1 in this project.', { param: 'id' }));
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toEqual({
      error: { code: 'NOT_FOUND', message: 'No changelog entry ce_1 in this project.', param: 'id', remediation: expect.any(String) },
    });
    expect(result.content).toEqual([
      {
        type: 'text',
        text: `NOT_FOUND: No changelog entry ce_1 in this project. ${(result.structuredContent as { error: { remediation: string } }).error.remediation}`,
      },
    ]);
  });

  it('says param null when the error names no field', () => {
    expect(
      (errorResult(new ApiError('PLAN_UPGRADE_REQUIRED', 'Indie and up.')).structuredContent as { error: { param: null } }).error.param,
    ).toBeNull();
  });
});

describe('errorResult of a limit', () => {
  it('says the Retry-After in the remediation, as a tool result has no headers', () => {
    const error = new ApiError('RATE_LIMITED', 'At most 20 invite waves a minute per project.', { headers: { 'Retry-After': '42' } });
    const body = (errorResult(error).structuredContent as { error: { remediation: string } }).error;
    expect(body.remediation).toMatch(/Retry after 42 seconds\.$/);
  });
});

describe('previewResult', () => {
  it('says that nothing changed and what confirm: true would do', () => {
    const result = previewResult({ action: 'delete' });
    expect(result.structuredContent).toEqual({ requires_confirmation: true, preview: { action: 'delete' } });
    expect(result.isError).toBeUndefined();
  });
});
