// React listens on each root it creates for every event type it knows (87 of them, most in both
// phases), whether or not a component handles them. On an island that costs a visitor on a phone twice
// over:
// - while the page has a touch or pointer listener, the browser hands every touch (a scroll's
//   included) to the main thread as it lands, ahead of the tap it becomes;
// - every tap, key and CSS transition in a hydrated form runs React's dispatch for events no block
//   handles (hover, pointer and transition events fire several times per tap).
// At 16× CPU slowdown a tap in the hydrated calculator took roughly twice as long as the same tap in its
// copy without script, and a tap before it hydrated took as long as the copy's.
//
// So an island's root is created without React's listeners for the event types below, which no block,
// form or ui component handles. eslint.config.js refuses a handler that needs one of them (onTouchStart,
// onPointerDown, onMouseEnter, onTransitionEnd, onScrollCapture, …) in the folders islands are made
// of, since such a handler would never be called. (A plain onScroll still works: React listens for
// scroll on the element that has it, and only the root's capture-phase listener is left out.)

/** The event types React listens to on a root, which no island handles. */
export const EVENTS_NO_ISLAND_HANDLES: ReadonlySet<string> = new Set([
  'touchstart',
  'touchmove',
  'touchend',
  'touchcancel',
  'pointerdown',
  'pointermove',
  'pointerup',
  'pointercancel',
  'pointerover',
  'pointerout',
  'gotpointercapture',
  'lostpointercapture',
  'mousemove',
  'mouseover',
  'mouseout',
  'wheel',
  'scroll',
  'scrollend',
  'transitionrun',
  'transitionstart',
  'transitionend',
  'transitioncancel',
  'animationstart',
  'animationend',
  'animationiteration',
]);

/**
 * Runs `createRoot` (React's hydrateRoot on `container`, which adds React's listeners to it before it
 * returns) with the listeners for EVENTS_NO_ISLAND_HANDLES left out. Listeners added to `container`
 * afterwards are added as usual.
 */
export function withoutUnhandledEventListeners<T>(container: HTMLElement, createRoot: () => T): T {
  const own = Object.getOwnPropertyDescriptor(container, 'addEventListener');
  const addEventListener = container.addEventListener;
  container.addEventListener = function (
    this: HTMLElement,
    type: string,
    listener: EventListenerOrEventListenerObject,
    options?: boolean | AddEventListenerOptions,
  ) {
    if (!EVENTS_NO_ISLAND_HANDLES.has(type)) addEventListener.call(this, type, listener, options);
  };
  try {
    return createRoot();
  } finally {
    if (own) Object.defineProperty(container, 'addEventListener', own);
    else Reflect.deleteProperty(container, 'addEventListener');
  }
}
