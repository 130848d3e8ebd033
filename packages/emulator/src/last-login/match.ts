/**
 * The matching rule of last-login enrichment, as pure functions: the single-sign-on activity of one
 * application (the latest login per value of the matching property, keys lower-cased) and a local
 * user's `identities` give the user's `sso_last_login_at`. Matching is case-insensitive and the
 * first identity that matches wins; a user without a match gets nothing.
 */

/** Latest single-sign-on time per lower-cased value of the matching property, for one application. */
export type AppActivity = Readonly<Record<string, string>>;

/** One login of an identity-provider user to an application, as the audit log shows it. */
export interface AuditLogin {
  /** The user's properties (`login`, `email`, custom attributes) at the time of the login. */
  user: Readonly<Record<string, string>>;
  /** RFC 3339 time of the login. */
  timestamp: string;
}

/** The value of `property` on `user`: the exact key, else the first key equal without case. */
export function propertyValue(user: Readonly<Record<string, string>>, property: string): string | undefined {
  if (Object.hasOwn(user, property)) return user[property];
  const wanted = property.toLowerCase();
  for (const key of Object.keys(user)) if (key.toLowerCase() === wanted) return user[key];
  return undefined;
}

/** The activity of one application: for each matching-property value, its latest login. */
export function appActivity(logins: Iterable<AuditLogin>, property: string): Record<string, string> {
  // Without a prototype, a value such as "__proto__" is a key like any other.
  const latest = Object.create(null) as Record<string, string>;
  const ms = Object.create(null) as Record<string, number>;
  for (const login of logins) {
    const value = propertyValue(login.user, property);
    if (value === undefined || value === '') continue;
    const key = value.toLowerCase();
    const t = Date.parse(login.timestamp);
    if (!(key in ms) || t > (ms[key] ?? -Infinity)) {
      ms[key] = t;
      latest[key] = login.timestamp;
    }
  }
  return latest;
}

/**
 * The `sso_last_login_at` of a local user: the latest login of the first of its `identities` that
 * matches a value in `activity` (without case), or undefined.
 */
export function ssoLastLoginAt(
  activity: AppActivity | undefined,
  identities: readonly string[] | null | undefined,
): string | undefined {
  if (activity === undefined || !identities) return undefined;
  for (const identity of identities) {
    const key = identity.toLowerCase();
    if (Object.hasOwn(activity, key)) return activity[key];
  }
  return undefined;
}
