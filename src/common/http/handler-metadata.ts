/**
 * A reader of one metadata key on route handlers, caching each handler's value: guards read route
 * metadata on every request, and reflection is not free.
 */
export function handlerMetadata<T>(key: string): (handler: object) => T | null {
  const cache = new WeakMap<object, T | null>();
  return (handler) => {
    let value = cache.get(handler);
    if (value === undefined) {
      value = (Reflect.getMetadata(key, handler) as T | undefined) ?? null;
      cache.set(handler, value);
    }
    return value;
  };
}
