/** The deepest matched route, written on #root of every prerendered page. */
export const ROUTE_ID_ATTRIBUTE = 'data-route-id';

/** User-timing mark the page shell sets once a page's islands are hydrated (renderer/shell/entry.ts); benchmarks read it from the trace. */
export const HYDRATED_MARK = 'hydrated';

/** On every lead form's <form>, its id (home, roi, contact, landing): the page's analytics beacon lists and follows them. */
export const LEAD_FORM_ATTRIBUTE = 'data-lead-form';

/** On every link to the booking page: the page's analytics beacon counts clicks on them. */
export const BOOKING_LINK_ATTRIBUTE = 'data-booking';
