// Build-time settings that reach the browser. Never put a secret here: it ends up in public JavaScript.
export type PublicSettings = {
  /** Canonical origin, without a trailing slash, e.g. "https://premieraiconsulting.com". */
  siteUrl: string;
  /** The external booking page; overrides site.yaml's bookingUrl when set. */
  bookingUrl: string | undefined;
  /** Where browsers send leads; empty string = demo mode (nothing is sent). */
  leadEndpoint: string;
};
