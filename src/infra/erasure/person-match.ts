/**
 * The person an erasure removes, as every contribution matches them: by the email (stored trimmed
 * and lower-cased everywhere, so compared lower-cased) and by each user id (compared exactly; user
 * ids are the project's own opaque strings).
 */
export interface PersonToErase {
  projectId: string;
  /** Trimmed and lower-cased, as the service stores emails; null when the person has none. */
  email: string | null;
  userIds: readonly string[];
  /**
   * Ids of the person's own records the erasure deleted before the contributions run (the
   * contact, waitlist signups, changelog subscribers): a stored answer that names one of them is
   * about the person even without their email (a signup's answer holds its id and referral code).
   */
  recordIds: readonly string[];
}

/** Whether one stored string value is the person's email or one of their user ids. */
export function isPersonValue(value: string, person: PersonToErase): boolean {
  return (person.email !== null && value.toLowerCase() === person.email) || person.userIds.includes(value);
}

/** Whether a string value is the person's email, a user id, or the id of one of their erased records. */
export function isPersonOrRecordValue(value: string, person: PersonToErase): boolean {
  return isPersonValue(value, person) || person.recordIds.includes(value);
}

/**
 * Values as JSON writes a whole string value ("ada@example.com" with its quotes and escapes), for a
 * cheap text search over stored JSON before anything is parsed: JSON text holding one of them as a
 * value contains its token; the parsed check then drops the rare text that contains it otherwise
 * (as an object key, say). `lowerCased` tokens (the email) are meant for a lower-cased text, the
 * `exact` ones (user ids, and record ids when asked) for the text as stored.
 */
export function jsonTokensOf(person: PersonToErase, withRecordIds = false): { lowerCased: string[]; exact: string[] } {
  const exact = withRecordIds ? [...person.userIds, ...person.recordIds] : person.userIds;
  return {
    lowerCased: person.email === null ? [] : [JSON.stringify(person.email)],
    exact: exact.map((value) => JSON.stringify(value)),
  };
}

// ASCII punctuation, escaped to stand for itself in a PostgreSQL regular expression (letters,
// digits and non-ASCII characters already do; a backslash before them could start an escape).
const ASCII_PUNCTUATION = /[!-/:-@[-`{-~]/g;

/**
 * PostgreSQL regular expressions (ARE) that find the person's email (use with `~*`) and user ids
 * (with `~`) as whole tokens of free text, such as a receiver's answer: not inside a longer
 * address, id or word ("ann@x.io" is not found in "joann@x.io", "u1" not in "u12"), while quotes,
 * spaces, brackets and a sentence's full stop around them do not hide them.
 */
export function textPatternsOf(person: PersonToErase): { caseInsensitive: string[]; caseSensitive: string[] } {
  const whole = (value: string) => `(?<![[:alnum:]_.+@-])${value.replace(ASCII_PUNCTUATION, '\\$&')}(?![[:alnum:]_+@-]|\\.[[:alnum:]])`;
  return { caseInsensitive: person.email === null ? [] : [whole(person.email)], caseSensitive: person.userIds.map(whole) };
}

/** Whether any string value anywhere in `json` (object values and array items, at any depth) passes `test`. */
export function someStringValue(json: unknown, test: (value: string) => boolean): boolean {
  if (typeof json === 'string') return test(json);
  if (Array.isArray(json)) return json.some((item) => someStringValue(item, test));
  if (json !== null && typeof json === 'object') return Object.values(json).some((value) => someStringValue(value, test));
  return false;
}

/**
 * `json` with every string value that names the person (email or user id) replaced by null; keys,
 * other values and the shape stay, so a payload still has every field its consumers expect.
 */
export function withoutPerson(json: unknown, person: PersonToErase): unknown {
  if (typeof json === 'string') return isPersonValue(json, person) ? null : json;
  if (Array.isArray(json)) return json.map((item) => withoutPerson(item, person));
  if (json !== null && typeof json === 'object') {
    return Object.fromEntries(Object.entries(json).map(([key, value]) => [key, withoutPerson(value, person)]));
  }
  return json;
}

/** Whether stored JSON text has a string value that passes `test`; text that does not parse counts as a match. */
export function jsonTextHasValue(text: string, test: (value: string) => boolean): boolean {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Only text that already holds one of the tokens gets here: unreadable, it is not kept.
    return true;
  }
  return someStringValue(parsed, test);
}
