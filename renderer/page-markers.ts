/** The deepest matched route, written on #root of every prerendered page. */
export const ROUTE_ID_ATTRIBUTE = 'data-route-id';

/** User-timing mark the page shell sets once a page's islands are hydrated (renderer/shell/entry.ts); benchmarks read it from the trace. */
export const HYDRATED_MARK = 'hydrated';
