// Router data travels from the prerendered page to the browser as a JSON data block (not an executable
// inline script), so a strict Content-Security-Policy needs no script exception for it.
export const HYDRATION_DATA_ID = 'router-data';
/** The deepest matched route, written on #root so the browser can tell whether the HTML fits the address. */
export const ROUTE_ID_ATTRIBUTE = 'data-route-id';

/** User-timing mark the app sets once hydrated (renderer/Layout.tsx); benchmarks read it from the trace. */
export const HYDRATED_MARK = 'hydrated';

export type HydrationData = { loaderData: Record<string, unknown>; actionData: Record<string, unknown> | null };

export function serializeForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
