import { IsInt, IsString, getMetadataStorage, validateSync } from 'class-validator';
import { cacheValidationMetadata } from './validation-metadata-cache';

class ParentBody {
  @IsString()
  name!: unknown;
}

class ChildBody extends ParentBody {
  @IsInt()
  count!: unknown;
}

const failingFields = (body: object) => validateSync(body).map((error) => error.property);

describe('cacheValidationMetadata', () => {
  beforeAll(() => cacheValidationMetadata());

  it("keeps a class's rules, its parent's included, and answers them from the cache", () => {
    const storage = getMetadataStorage();
    const first = storage.getTargetValidationMetadatas(ChildBody, '', true, false);
    expect(first.map((rule) => rule.propertyName).sort()).toEqual(['count', 'name']);
    expect(storage.getTargetValidationMetadatas(ChildBody, '', true, false)).toBe(first);
    // Other options are another entry, not the same answer.
    expect(storage.getTargetValidationMetadatas(ChildBody, '', false, false)).not.toBe(first);
  });

  it('validates as before: the parent and the child keep their own rules', () => {
    expect(failingFields(Object.assign(new ChildBody(), { name: 1, count: 'x' })).sort()).toEqual(['count', 'name']);
    expect(failingFields(Object.assign(new ChildBody(), { name: 'a', count: 2 }))).toEqual([]);
    expect(failingFields(Object.assign(new ParentBody(), { name: 1, count: 'x' }))).toEqual(['name']);
  });

  it('looks up afresh when groups are asked for, and patches the storage once', () => {
    const storage = getMetadataStorage();
    const patched = storage.getTargetValidationMetadatas;
    cacheValidationMetadata();
    expect(storage.getTargetValidationMetadatas).toBe(patched);
    const grouped = storage.getTargetValidationMetadatas(ChildBody, '', false, false, ['admin']);
    expect(grouped).not.toBe(storage.getTargetValidationMetadatas(ChildBody, '', false, false, ['admin']));
  });

  // The contract with class-validator: if an upgrade stopped asking this method, or asked it with
  // other arguments, the cache would silently stop working; this fails instead.
  it("is what class-validator's validate asks, once per validation, with the class and its options", () => {
    const storage = getMetadataStorage();
    const patched = storage.getTargetValidationMetadatas;
    const asked: unknown[][] = [];
    storage.getTargetValidationMetadatas = (...args) => {
      asked.push(args);
      return patched(...args);
    };
    try {
      failingFields(Object.assign(new ChildBody(), { name: 'a', count: 2 }));
    } finally {
      storage.getTargetValidationMetadatas = patched;
    }
    expect(asked).toHaveLength(1);
    const [target, schema, always, strictGroups, groups] = asked[0];
    expect(target).toBe(ChildBody);
    expect(schema === undefined || schema === '').toBe(true);
    expect(typeof always).toBe('boolean');
    expect(typeof strictGroups).toBe('boolean');
    expect(groups === undefined || (Array.isArray(groups) && groups.length === 0)).toBe(true);
  });
});
