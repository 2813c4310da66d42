import { ValidationArguments, ValidationOptions, isURL, registerDecorator } from 'class-validator';

/** class-validator's isURL options (validator.js's own type). */
type IsURLOptions = NonNullable<Parameters<typeof isURL>[1]>;

const ABSOLUTE_HTTP_URL: IsURLOptions = { require_protocol: true, protocols: ['http', 'https'], require_tld: false };

/**
 * Whether `value` is an absolute http(s) URL both to class-validator's isURL and to the WHATWG URL
 * parser (`new URL`), which is how the service and the browsers read it. The two disagree: isURL
 * accepts hosts the parser refuses, such as `http://xn--a.com` (broken punycode), `http://⒈.com` (a
 * character IDNA forbids) and `https://[fe80::1%25eth0]` (an IPv6 zone), so a URL that passed the DTO
 * could still throw where it is read, as a 500.
 */
function isHttpUrl(value: unknown, options: IsURLOptions = {}): value is string {
  if (typeof value !== 'string' || !isURL(value, { ...ABSOLUTE_HTTP_URL, ...options })) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
  } catch {
    return false;
  }
}

/** An absolute http(s) URL (see isHttpUrl); `options` adds isURL options such as `allow_underscores`. */
export function IsHttpUrl(options: IsURLOptions = {}, validationOptions?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isHttpUrl',
      target: target.constructor,
      propertyName: propertyName as string,
      options: validationOptions,
      validator: {
        validate: (value: unknown) => isHttpUrl(value, options),
        defaultMessage: (args: ValidationArguments) => `${args.property} must be an absolute http(s) URL`,
      },
    });
}
