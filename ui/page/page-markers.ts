// The page contract: the attributes and marks the components write into a page and the page shell
// (renderer/shell) and the build read back. It sits below the components so they never import the
// renderer that draws them.
/** The deepest matched route, written on #root of every prerendered page. */
export const ROUTE_ID_ATTRIBUTE = 'data-route-id';

/** User-timing mark the page shell sets once a page's islands are hydrated (renderer/shell/entry.ts); benchmarks read it from the trace. */
export const HYDRATED_MARK = 'hydrated';

/** On every lead form's <form>, its id (home, roi, contact, landing): the page's analytics beacon lists and follows them. */
export const LEAD_FORM_ATTRIBUTE = 'data-lead-form';

/** Marks a link that must load its page in full (content's `fullPageLoad`): the page shell lets the browser follow it. */
export const FULL_LOAD_ATTRIBUTE = 'data-full-load';

/** On every link to the booking page: the page's analytics beacon counts clicks on them. */
export const BOOKING_LINK_ATTRIBUTE = 'data-booking';

/**
 * On an island holding a lead form: when the form was first near the screen (ms since the epoch),
 * set by the page shell (renderer/shell/islands.ts). A form hydrates only once the visitor reaches for
 * it, so the time the visitor took to fill it (a spam signal) is counted from here, not from hydration.
 */
export const FORM_SHOWN_AT_ATTRIBUTE = 'data-form-shown-at';
