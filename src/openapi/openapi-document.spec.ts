import { sortDocument } from './openapi-document';

describe('sortDocument', () => {
  it('sorts keys, required lists and parameters but keeps other arrays in order', () => {
    const sorted = sortDocument({
      b: 1,
      a: { required: ['z', 'a'], enum: ['z', 'a'] },
      parameters: [
        { in: 'query', name: 'limit' },
        { in: 'header', name: 'Idempotency-Key' },
      ],
    });
    expect(JSON.stringify(sorted)).toBe(
      JSON.stringify({
        a: { enum: ['z', 'a'], required: ['a', 'z'] },
        b: 1,
        parameters: [
          { in: 'header', name: 'Idempotency-Key' },
          { in: 'query', name: 'limit' },
        ],
      }),
    );
  });
});
