/** A signup as attribution analytics reads it: who, whether confirmed, and where they came from. */
export interface AttributionSignupRow {
  email: string;
  confirmed: boolean;
  /** api, widget or import. */
  channel: string;
  /** The utm fields, referrer and landing path the signup form sent. */
  source: Record<string, string> | null;
  /** A referral link brought them. */
  referred: boolean;
}
