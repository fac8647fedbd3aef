// The console's JSON API as the app calls it: one place sets the credentials, the CSRF header on
// every change and the error value, so no screen checks `response.ok` on its own. A 401 from any
// call but the session check ends the session in the app (the person signs in again, on the same
// address); a 403 says the role cannot do it, whatever the server's wording.
import {
  ANALYTICS_FILTERS,
  CONSOLE_API,
  type AnalyticsFilter,
  type AnalyticsSummary,
  type AccountSummary,
  type AssignmentRules,
  type AssignmentRulesInput,
  type AvailabilityInput,
  type CallNow,
  type LeadSalesView,
  type LeadWithSales,
  type SalesPerson,
  type SalesStatus,
  type SpeedReport,
  type BookingList,
  type TouchInput,
  type AnalyticsExport,
  type AnalyticsReport,
  type AnalyticsSplit,
  type ApiError as ApiErrorBody,
  type AuditPage,
  type DayRange,
  type ErasurePreview,
  type ErasureResult,
  type Health,
  type LeadFilter,
  type LeadPage,
  type NotificationSettings,
  type RetryResult,
  type Role,
  type SendAgainResult,
  type SessionInfo,
  type SpamResult,
  type TestNotificationResult,
  type VitalsReport,
  type WeeklySummaryChoice,
} from '../api-types.ts';
import { createApiClient } from '../../back-office/browser/api-client.ts';

export const FORBIDDEN_MESSAGE = 'Your role cannot do this.';
const UNREACHABLE_MESSAGE = 'The console cannot reach the server. Check your connection and try again.';

/** A call that did not succeed: the server's reason and its sentence, or `network` when no answer came. */
export class ApiError extends Error {
  override name = 'ApiError';
  readonly status: number;
  readonly reason: ApiErrorBody['error'] | 'network';
  readonly fields: Record<string, string>;
  readonly retryAfterSeconds: number | undefined;

  constructor(status: number, body: Partial<ApiErrorBody>) {
    super(status === 403 ? FORBIDDEN_MESSAGE : (body.message ?? (status === 0 ? UNREACHABLE_MESSAGE : `The server answered ${status}.`)));
    this.status = status;
    this.reason = body.error ?? 'network';
    this.fields = body.fields ?? {};
    this.retryAfterSeconds = body.retryAfterSeconds;
  }
}

/** The sentence to show for any failure, an ApiError or not. */
export function messageOf(failure: unknown): string {
  return failure instanceof ApiError ? failure.message : 'Something went wrong in the console. Reload the page and try again.';
}

/** A LeadFilter (or any flat record) as query parameters, leaving out empty values. */
export function toQuery(values: Readonly<Record<string, string | undefined>>): URLSearchParams {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(values)) if (value) query.set(name, value);
  return query;
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export class ConsoleApi {
  /** Called when a signed-in call answers 401: the session ended or was revoked. */
  onSignedOut: () => void = () => undefined;

  private readonly client = createApiClient({
    headers: { accept: 'application/json' },
    unreachable: () => new ApiError(0, {}),
    failure: (status, body) => new ApiError(status, body as Partial<ApiErrorBody>),
    onUnauthorized: (url) => {
      if (url !== `${CONSOLE_API}/session`) this.onSignedOut();
    },
  });

  private call<T>(method: Method, path: string, body?: unknown): Promise<T> {
    return this.client.call<T>(method, `${CONSOLE_API}${path}`, body);
  }

  private remember(session: SessionInfo): SessionInfo {
    this.client.setCsrfToken(session.csrfToken);
    return session;
  }

  /** The signed-in person, or null when nobody is (401). */
  async session(): Promise<SessionInfo | null> {
    try {
      return this.remember(await this.call<SessionInfo>('GET', '/session'));
    } catch (failure) {
      if (failure instanceof ApiError && failure.status === 401) return null;
      throw failure;
    }
  }
  async signIn(email: string, password: string): Promise<SessionInfo> {
    return this.remember(await this.call<SessionInfo>('POST', '/session', { email, password }));
  }
  async signOut(): Promise<void> {
    await this.call<unknown>('DELETE', '/session');
    this.client.setCsrfToken('');
  }

  health = () => this.call<Health>('GET', '/health');
  /** Every visit report; the server fills in a range left out (the 30 UTC days ending today). */
  analytics = (asked: Partial<DayRange> & { split?: AnalyticsSplit }) =>
    this.call<AnalyticsReport>(
      'GET',
      `/analytics?${toQuery({ ...asked, split: asked.split === 'none' ? undefined : asked.split }).toString()}`,
    );
  /** The key figures, what converts and the series; a filter's '' value is sent (it means "none"), a filter left out is not. */
  analyticsSummary = (range: Partial<DayRange>, filter: AnalyticsFilter) => {
    const query = toQuery({ from: range.from, to: range.to });
    for (const key of ANALYTICS_FILTERS) if (filter[key] !== undefined) query.set(key, filter[key]);
    return this.call<AnalyticsSummary>('GET', `/analytics/summary?${query.toString()}`);
  };
  /** Field speed per page for the days given (one page when `page` is). */
  analyticsVitals = (asked: DayRange & { page?: string | undefined }) =>
    this.call<VitalsReport>('GET', `/analytics/vitals?${toQuery(asked).toString()}`);
  leads = (filter: LeadFilter, after: string | null) =>
    this.call<LeadPage>('GET', `/leads?${toQuery({ ...filter, after: after ?? undefined }).toString()}`);
  lead = (id: string) => this.call<LeadWithSales>('GET', `/leads/${encodeURIComponent(id)}`);
  retry = (target: { ids: string[] } | { allFailed: true }) => this.call<RetryResult>('POST', '/leads/retry', target);
  sendAgain = (id: string) => this.call<SendAgainResult>('POST', `/leads/${encodeURIComponent(id)}/send-again`, {});
  markSpam = (id: string, spam: boolean) => this.call<SpamResult>('POST', `/leads/${encodeURIComponent(id)}/spam`, { spam });
  erasurePreview = (email: string) => this.call<ErasurePreview>('GET', `/erasures?${toQuery({ email }).toString()}`);
  erase = (email: string, count: number) => this.call<ErasureResult>('POST', '/erasures', { email, count });
  audit = (after: string | null) => this.call<AuditPage>('GET', `/audit${after ? `?${toQuery({ after }).toString()}` : ''}`);
  notifications = () => this.call<NotificationSettings>('GET', '/notifications');
  setFormNotification = (form: string, newLeadEmail: boolean) => this.call<unknown>('PUT', '/notifications/forms', { form, newLeadEmail });
  testNotification = () => this.call<TestNotificationResult>('POST', '/notifications/test', {});
  /** The signed-in person's own weekly summary by e-mail. */
  weeklySummary = () => this.call<WeeklySummaryChoice>('GET', '/me/weekly-summary');
  setWeeklySummary = (enabled: boolean) => this.call<WeeklySummaryChoice>('PUT', '/me/weekly-summary', { enabled });
  /** The accounts, whether the server lists them bare or as `{ accounts }`. */
  accounts = async (): Promise<AccountSummary[]> => {
    const answer = await this.call<AccountSummary[] | { accounts: AccountSummary[] }>('GET', '/accounts');
    return Array.isArray(answer) ? answer : answer.accounts;
  };
  addAccount = (account: { email: string; role: Role; password: string }) => this.call<unknown>('POST', '/accounts', account);
  changeRole = (email: string, role: Role) => this.call<unknown>('PATCH', `/accounts/${encodeURIComponent(email)}`, { role });
  removeAccount = (email: string) => this.call<unknown>('DELETE', `/accounts/${encodeURIComponent(email)}`);

  // The sales queue.
  queue = () => this.call<CallNow>('GET', '/queue');
  setOwner = (id: string, ownerId: string | null) =>
    this.call<LeadSalesView>('POST', `/leads/${encodeURIComponent(id)}/owner`, { ownerId });
  setSalesStatus = (id: string, status: SalesStatus, lostReason?: string) =>
    this.call<LeadSalesView>(
      'POST',
      `/leads/${encodeURIComponent(id)}/status`,
      lostReason === undefined ? { status } : { status, lostReason },
    );
  addNote = (id: string, text: string) => this.call<LeadSalesView>('POST', `/leads/${encodeURIComponent(id)}/notes`, { text });
  logTouch = (id: string, touch: TouchInput) => this.call<LeadSalesView>('POST', `/leads/${encodeURIComponent(id)}/touches`, touch);
  people = () => this.call<SalesPerson[]>('GET', '/people');
  setAvailability = (personId: string, availability: AvailabilityInput) =>
    this.call<SalesPerson>('PUT', `/people/${encodeURIComponent(personId)}/availability`, availability);
  assignmentRules = () => this.call<AssignmentRules>('GET', '/assignment-rules');
  setAssignmentRules = (rules: AssignmentRulesInput) => this.call<AssignmentRules>('PUT', '/assignment-rules', rules);
  speed = (asked: Partial<DayRange>) => this.call<SpeedReport>('GET', `/speed?${toQuery(asked).toString()}`);
  /** Meetings from the booking page, newest first; `unmatched`: only those that match no lead. */
  bookings = (unmatched: boolean) => this.call<BookingList>('GET', unmatched ? '/bookings?unmatched=1' : '/bookings');
}

/** Where one speed-to-lead table downloads from as CSV, for the range the screen shows. */
export function speedExportUrl(by: 'owner' | 'form' | 'campaign', range: DayRange): string {
  return `${CONSOLE_API}/speed/export?${toQuery({ from: range.from, to: range.to, by }).toString()}`;
}

/** Where the inbox's export downloads from: a plain link, so the browser saves the file itself. */
export function exportUrl(filter: LeadFilter, format: 'csv' | 'json'): string {
  return `${CONSOLE_API}/leads/export?${toQuery({ ...filter, format }).toString()}`;
}

/** Where one visit report downloads from as CSV, for the range (and split) the screen shows. */
export function analyticsExportUrl(report: AnalyticsExport, range: DayRange, split: AnalyticsSplit = 'none'): string {
  return `${CONSOLE_API}/analytics/export?${toQuery({ report, from: range.from, to: range.to, split: split === 'none' ? undefined : split }).toString()}`;
}
