/**
 * The codes of the errors scim-app throws. They are the plugin's own, not oaakit's registered ones:
 * the runner wraps them (`EXTRACT_FAILED`, `CHECK_FAILED`) and keeps them as `details.causeCode`.
 */
export type ScimAppErrorCode =
  /** The bearer token secret is not set. */
  | 'SECRET_MISSING'
  /** A SCIM request failed: the network, or an error status. */
  | 'SCIM_REQUEST_FAILED'
  /** A SCIM answer that is not JSON or lacks what SCIM requires. */
  | 'SCIM_BAD_RESPONSE'
  /** The SCIM service's paging does not advance or overshoots. */
  | 'SCIM_PAGING_BROKEN';
