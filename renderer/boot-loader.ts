// How a prerendered page starts its JavaScript. The HTML is complete without it, so the browser
// first spends the network on the page itself (HTML, font, pictures) and paints; only then does this
// small inline script request the page shell (renderer/shell/entry.ts) and a modulepreload for each
// chunk the page's islands need. On a slow phone connection that keeps the scripts (up to ~115 KB on
// a page with a form) from competing with the first paint (Lighthouse mobile LCP went from ~2.3 s to
// ~1 s when every page still carried ~120 KB; docs/performance.md).
//
// The list of chunks is a JSON data block, so the script text is the same on every page and the
// Content-Security-Policy needs exactly one hash for it (the build computes it: scripts/seo/csp-manifest.ts).

/** id of the JSON block listing the page's scripts: the entry first, then the chunks to preload. */
export const BOOT_MODULES_ID = 'boot-modules';

/** How long after the load event the app starts when the browser reports no paint (old browsers, background tabs). */
export const NO_PAINT_FALLBACK_MS = 1000;

/**
 * Elements added per task: one. Starting a request costs the main thread a few milliseconds on a
 * fast machine and far more on a slow phone (the first, which sets up the page's module loading, took
 * ~55 ms of main thread at 4× CPU slowdown with four elements in one task); a page needs up to ~20.
 */
const BATCH_SIZE = 1;

/** Longest wait for an idle moment before the next element is added anyway (a page that is never idle). */
export const IDLE_TIMEOUT_MS = 500;

/**
 * The inline script. It starts the app once, after the first contentful paint the browser reports
 * through Paint Timing (not the first paint, which can come earlier with nothing of the page on
 * screen); without Paint Timing, a second after the load event. Each element is added in a task of its
 * own at an idle moment (requestIdleCallback where the browser has it), so the requests never hold
 * up what the visitor does first. The modulepreloads go first and the entry last: when the entry
 * runs, the chunks it imports are already on their way.
 * ES5 on purpose: it is not bundled, and must not throw in any browser that parses the page.
 */
export const BOOT_LOADER_SCRIPT = `(function () {
  var started = false;
  function idle(go) {
    if (window.requestIdleCallback) requestIdleCallback(go, { timeout: ${IDLE_TIMEOUT_MS} });
    else setTimeout(go, 0);
  }
  function start() {
    if (started) return;
    started = true;
    var urls = JSON.parse(document.getElementById(${JSON.stringify(BOOT_MODULES_ID)}).textContent);
    var order = urls.slice(1).concat(urls.slice(0, 1));
    var next = 0;
    (function requestBatch() {
      for (var end = Math.min(next + ${BATCH_SIZE}, order.length); next < end; next++) {
        var entry = next === order.length - 1;
        var element = document.createElement(entry ? 'script' : 'link');
        if (entry) element.type = 'module';
        else element.rel = 'modulepreload';
        element.crossOrigin = '';
        element[entry ? 'src' : 'href'] = order[next];
        document.head.appendChild(element);
      }
      if (next < order.length) idle(requestBatch);
    })();
  }
  if (window.PerformanceObserver && (PerformanceObserver.supportedEntryTypes || []).indexOf('paint') !== -1) {
    new PerformanceObserver(function (list) {
      var entries = list.getEntries();
      for (var i = 0; i < entries.length; i++) if (entries[i].name === 'first-contentful-paint') return void idle(start);
    }).observe({ type: 'paint', buffered: true });
  }
  addEventListener('load', function () { setTimeout(start, ${NO_PAINT_FALLBACK_MS}); });
})();`;

/** The two tags that end every prerendered page: the script list and the loader. */
export function bootTags(entry: string, preloads: readonly string[]): string {
  // "<" is escaped so no URL can close the data block early.
  const list = JSON.stringify([entry, ...preloads]).replace(/</g, '\\u003c');
  return `<script type="application/json" id="${BOOT_MODULES_ID}">${list}</script>\n    <script>${BOOT_LOADER_SCRIPT}</script>`;
}

/** The scripts a prerendered page starts (entry first), read back from its HTML; [] when it has none. */
export function bootModules(html: string): string[] {
  const match = new RegExp(`<script type="application/json" id="${BOOT_MODULES_ID}">([^<]*)</script>`).exec(html);
  return match ? (JSON.parse(match[1]!) as string[]) : [];
}
