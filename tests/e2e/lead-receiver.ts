// The test receiver for POST /api/leads (until the relay exists): Playwright intercepts the request,
// records its exact body and headers, and answers as the test says (201, 500, or a dropped network).
import { expect, type Locator, type Page } from '@playwright/test';

export type ReceiverAnswer = number | 'network-down';

export interface ReceivedLead {
  readonly method: string;
  readonly url: string;
  /** Lower-cased header names, as HTTP/2 and Playwright report them. */
  readonly headers: Record<string, string>;
  /** The parsed JSON body, or the raw text when it was not JSON (the no-JavaScript form post). */
  readonly body: Record<string, unknown>;
  readonly rawBody: string;
}

export interface LeadReceiver {
  readonly leads: ReceivedLead[];
  /** Answers for the next requests, in order; the last one repeats. */
  answerWith(...answers: ReceiverAnswer[]): void;
  /** Holds every answer until `release()`, to observe the form while it is sending. */
  hold(): void;
  release(): void;
}

export const LEAD_ENDPOINT_PATTERN = '**/api/leads';

export async function startLeadReceiver(page: Page, ...initialAnswers: ReceiverAnswer[]): Promise<LeadReceiver> {
  const leads: ReceivedLead[] = [];
  let answers: ReceiverAnswer[] = initialAnswers.length ? initialAnswers : [201];
  let answered = 0;
  let gate: Promise<void> | undefined;
  let openGate: (() => void) | undefined;

  await page.route(LEAD_ENDPOINT_PATTERN, async (route) => {
    const request = route.request();
    const rawBody = request.postData() ?? '';
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(rawBody) as Record<string, unknown>;
    } catch {
      body = {};
    }
    leads.push({ method: request.method(), url: request.url(), headers: await request.allHeaders(), body, rawBody });
    const answer = answers[Math.min(answered, answers.length - 1)] ?? 201;
    answered += 1;
    if (gate) await gate;
    if (answer === 'network-down') {
      await route.abort('internetdisconnected');
      return;
    }
    await route.fulfill({
      status: answer,
      contentType: 'application/json',
      body: JSON.stringify(answer < 300 ? { id: `lead-${leads.length}` } : { error: 'server_error' }),
    });
  });

  return {
    leads,
    answerWith: (...next) => {
      answers = next;
      answered = 0;
    },
    hold: () => {
      gate = new Promise((resolve) => {
        openGate = resolve;
      });
    },
    release: () => {
      openGate?.();
      gate = undefined;
    },
  };
}

export type ToastVariant = 'default' | 'success' | 'destructive';

/** A sonner toast with this exact title and description; destructive toasts are sonner's error type. */
export async function expectToast(page: Page, title: string, description: string | RegExp, variant?: ToastVariant): Promise<Locator> {
  const exactTitle = new RegExp(`^${escapeRegExp(title)}$`);
  const toast = page
    .locator('[data-sonner-toast]')
    .filter({ has: page.locator('[data-title]', { hasText: exactTitle }) })
    .last();
  await expect(toast).toBeVisible();
  await expect(toast.locator('[data-title]')).toHaveText(title);
  await expect(toast.locator('[data-description]')).toHaveText(description);
  if (variant === 'destructive') await expect(toast).toHaveAttribute('data-type', 'error');
  if (variant === 'success') await expect(toast).toHaveAttribute('data-type', 'success');
  if (variant === 'default') await expect(toast).not.toHaveAttribute('data-type', /^(error|success)$/);
  return toast;
}

export const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

// Attribution on the landing address: the UTM fields travel with every lead of the visit.
export const UTM_QUERY = 'utm_source=newsletter&utm_medium=email&utm_campaign=spring-launch&utm_term=ai%20consulting&utm_content=hero';
export const UTM_FIELDS = {
  utm_source: 'newsletter',
  utm_medium: 'email',
  utm_campaign: 'spring-launch',
  utm_term: 'ai consulting',
  utm_content: 'hero',
} as const;

/** submitted_at and form_shown_at are real times: both inside the test's window, shown before sent. */
export function expectSubmissionTimes(body: Record<string, unknown>, startedAtMs: number) {
  const submittedAtMs = Date.parse(String(body.submitted_at));
  expect(String(body.submitted_at)).toMatch(ISO_TIMESTAMP);
  expect(submittedAtMs).toBeGreaterThanOrEqual(startedAtMs - 1000);
  expect(submittedAtMs).toBeLessThanOrEqual(Date.now() + 1000);
  expect(typeof body.form_shown_at).toBe('number');
  expect(body.form_shown_at as number).toBeGreaterThanOrEqual(startedAtMs - 1000);
  expect(body.form_shown_at as number).toBeLessThanOrEqual(submittedAtMs);
}

/** Presses Tab until the element with this accessible label inside `scope` has focus (keyboard only). */
export async function tabUntilFocused(page: Page, target: Locator, maxPresses = 120) {
  for (let press = 0; press < maxPresses; press += 1) {
    if (await target.evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${target}`);
}

/** The per-field message, found the way assistive technology finds it: through aria-describedby. */
export async function expectFieldError(field: Locator, message: string) {
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  await expect(field).toHaveAccessibleDescription(new RegExp(escapeRegExp(message)));
}

export async function expectNoFieldError(field: Locator) {
  await expect(field).not.toHaveAttribute('aria-invalid', 'true');
}

function escapeRegExp(text: string) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
