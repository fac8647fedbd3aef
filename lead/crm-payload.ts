// Lead payloads: the fields each form sends, with the wire names the CRM's mappings expect, unchanged so the
// CRM's existing field mappings keep working, plus the visit's attribution merged flat.
import { calculateRoi, parseNumber, revenueBracket, type RevenueBracket, type RoiParameters } from './roi/engine.ts';
import type { Attribution } from './attribution.ts';
import { describeCallback, type CallbackConsentWording, type CallbackFields } from './callback-consent.ts';
import { LEAD_SOURCES } from './rules.ts';
import { cutText } from './storable-text.ts';
import type { ContactFormValues, HomeFormValues, LandingFormValues, RoiFormValues } from './validation.ts';

// `user_agent` is cut to 200 characters.
export const USER_AGENT_MAX_LENGTH = 200;
// Referrer is 'direct' when empty.
export const DIRECT_REFERRER = 'direct';

/** The world a payload is built in, injected so builders stay pure. */
export interface PayloadContext {
  readonly now: Date;
  readonly pageUrl: string;
  readonly userAgent: string;
  readonly referrer: string;
  readonly attribution: Attribution;
  /** The wording of "call me back now" the visitor ticked (from the builder's own content); absent when unticked. */
  readonly callbackConsent?: CallbackConsentWording | undefined;
}

type SubmissionFields<S> = {
  submitted_at: string;
  source: S;
  page_url: string;
} & CallbackFields;

interface BrowserFields {
  user_agent: string;
  referrer: string;
}

export type HomeLeadPayload = Attribution &
  Pick<HomeFormValues, 'name' | 'email' | 'phone' | 'company'> &
  SubmissionFields<typeof LEAD_SOURCES.home>;

export type RoiLeadPayload = Attribution &
  Omit<RoiFormValues, 'currentRevenue'> & {
    currentRevenue: RevenueBracket;
    current_revenue_usd: number;
    roi_revenue_increase: number;
    roi_labor_savings: number;
    roi_total_savings: number;
    roi_percentage: number;
    roi_hours_saved_weekly: number;
    roi_uplift_percentage: number;
  } & SubmissionFields<typeof LEAD_SOURCES.roi> &
  BrowserFields;

export type ContactLeadPayload = Attribution & ContactFormValues & SubmissionFields<typeof LEAD_SOURCES.contact> & BrowserFields;

export type LandingLeadPayload = Attribution & LandingFormValues & SubmissionFields<typeof LEAD_SOURCES.landing>;

export type LeadPayload = HomeLeadPayload | RoiLeadPayload | ContactLeadPayload | LandingLeadPayload;

function describeSubmission<S extends string>(source: S, context: PayloadContext): SubmissionFields<S> {
  return {
    submitted_at: context.now.toISOString(),
    source,
    page_url: context.pageUrl,
    ...describeCallback(context.callbackConsent, context),
  };
}

function describeBrowser(context: PayloadContext): BrowserFields {
  return {
    user_agent: cutText(context.userAgent, USER_AGENT_MAX_LENGTH),
    referrer: context.referrer.trim() === '' ? DIRECT_REFERRER : context.referrer,
  };
}

// Builders take the schema's parsed output (trimmed, sanitised), never raw form state.
// Attribution goes first so it can never overwrite a form field.

export function buildHomePayload(values: HomeFormValues, context: PayloadContext): HomeLeadPayload {
  return {
    ...context.attribution,
    name: values.name,
    email: values.email,
    phone: values.phone,
    company: values.company,
    ...describeSubmission(LEAD_SOURCES.home, context),
  };
}

export function buildRoiPayload(values: RoiFormValues, context: PayloadContext, parameters: RoiParameters): RoiLeadPayload {
  const result = calculateRoi(values, parameters);
  return {
    ...context.attribution,
    companySize: values.companySize,
    // The revenue value is replaced by its bracket label; the amount travels beside it.
    currentRevenue: revenueBracket(values.currentRevenue),
    industry: values.industry,
    teamSize: values.teamSize,
    averageSalary: values.averageSalary,
    manualHours: values.manualHours,
    name: values.name,
    email: values.email,
    phone: values.phone,
    company: values.company,
    challenge: values.challenge,
    best_time: values.best_time,
    // The parsed amount, so the relay can recompute every figure.
    current_revenue_usd: parseNumber(values.currentRevenue) ?? 0,
    // Money in whole dollars, ROI a whole number, uplift as rate × 100.
    roi_revenue_increase: Math.round(result.revenueIncrease),
    roi_labor_savings: Math.round(result.laborSavings),
    roi_total_savings: Math.round(result.totalSavings),
    roi_percentage: Math.round(result.roi),
    roi_hours_saved_weekly: result.weeklyHoursSaved,
    roi_uplift_percentage: result.upliftPercentage,
    ...describeSubmission(LEAD_SOURCES.roi, context),
    ...describeBrowser(context),
  };
}

export function buildContactPayload(values: ContactFormValues, context: PayloadContext): ContactLeadPayload {
  return {
    ...context.attribution,
    name: values.name,
    email: values.email,
    phone: values.phone,
    company: values.company,
    service_interest: values.service_interest,
    message: values.message,
    ...describeSubmission(LEAD_SOURCES.contact, context),
    ...describeBrowser(context),
  };
}

export function buildLandingPayload(values: LandingFormValues, context: PayloadContext): LandingLeadPayload {
  return {
    ...context.attribution,
    name: values.name,
    email: values.email,
    phone: values.phone,
    company: values.company,
    revenue: values.revenue,
    challenge: values.challenge,
    bestTime: values.bestTime,
    ...describeSubmission(LEAD_SOURCES.landing, context),
  };
}
