// The browser entry of prerendered pages: the page shell. It is all the JavaScript a page without
// interactive blocks runs (an article, a legal page): the header menu, client-side navigation between
// prerendered pages, the visit's attribution and the analytics beacon. Interactive blocks are islands
// it hydrates one by one (renderer/shell/islands.ts); static blocks stay the HTML they were built as.
import { captureVisitAttribution } from '../../ui/page/visit-attribution.ts';
import { HYDRATED_MARK } from '../../ui/page/page-markers.ts';
import { startBeacon } from './beacon.ts';
import { hydrateIslands, unmountIslands } from './islands.ts';
import { startMenu } from './menu.ts';
import { startNavigation } from './navigation.ts';
import { whenIdle } from '../../ui/page/when-idle.ts';

const html = document.documentElement;
let shownPage = 0;

/** Marks the page interactive once the islands on screen have hydrated: tests and benchmarks wait for it. */
function startPage(root: HTMLElement) {
  const page = ++shownPage;
  void hydrateIslands(root).then(() => {
    if (page !== shownPage) return;
    html.dataset.hydrated = 'true';
    // On the performance timeline for benchmarks (scripts/bench/lighthouse.ts reads it from the trace).
    performance.mark(HYDRATED_MARK);
  });
}

// The menu and client-side navigation answer the visitor's first tap, and the beacon must hear the
// first navigation to count the page the visitor landed on (with its campaign), so these three start
// with the module; the beacon only listens then and sends at an idle moment. The rest starts in tasks
// of its own at idle moments: on a slow phone, all of it in the module's one task was a long task
// (~60 ms at 4× CPU slowdown), during which a tap waited.
startMenu();
startNavigation({
  onStart() {
    html.dataset.hydrated = 'false';
  },
  beforeSwap(root) {
    shownPage++;
    unmountIslands(root);
  },
  afterSwap: startPage,
});
// Page views, booking clicks and lead forms, counted by our own server without cookies.
startBeacon();
whenIdle(() => {
  const root = document.getElementById('root');
  if (root) startPage(root);
});
// The visit's UTM tags, click ids and referrer are kept in memory from the first page view, so a lead
// sent later on another page of this page load is still attributed; nothing is written to the device.
// They are read from the page load's own address (its navigation entry), so capturing them a moment
// later, even after a client-side navigation, reads the same.
whenIdle(captureVisitAttribution);
