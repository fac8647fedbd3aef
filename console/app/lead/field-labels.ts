// What each field of a lead is called on the lead screen: the form's own label for what the visitor
// typed (as the form showed it), and plain words for what the browser added, so a salesperson never
// reads a field's code name. A field no form names (an older form's) keeps the name it was sent under.
import { FORM_FIELD_LABELS, LEAD_FORM_IDS, LEAD_SOURCES } from '../../../lead/rules.ts';

const SENT_BY_THE_BROWSER: Readonly<Record<string, string>> = {
  submitted_at: 'Sent at (their clock)',
  page_url: 'Sent from the page',
  user_agent: 'Browser',
  // "Call me back now": recorded by the relay, in the words the page showed.
  callback_requested: 'Asked for a call-back now',
  callback_consent_text: 'Call-back agreement, as shown to them',
  callback_consent_at: 'Call-back agreed at',
  callback_consent_version: 'Call-back wording (version)',
  callback_consent_page: 'Call-back agreed on the page',
};

// The ROI form sends, beside what the visitor typed, the amount they typed for their revenue (the
// form's own field holds its bracket) and the figures the page worked out for them: named as the
// result showed them, with their unit, so a salesperson can quote them on the call.
const WORKED_OUT_BY_THE_ROI_PAGE: Readonly<Record<string, string>> = {
  current_revenue_usd: 'Annual Revenue as typed (dollars)',
  roi_total_savings: 'Their ROI result: Total Annual Savings (dollars a year)',
  roi_percentage: 'Their ROI result: Return on Investment (%)',
  roi_revenue_increase: 'Their ROI result: Additional Revenue (dollars a year)',
  roi_labor_savings: 'Their ROI result: Labor Cost Savings (dollars a year)',
  roi_hours_saved_weekly: 'Their ROI result: Weekly Hours Saved (per team member)',
  roi_uplift_percentage: 'Their ROI result: revenue uplift for their industry (%)',
};

/** The label of field `key` of a lead from the form named `source` (e.g. `Contact Page Form`). */
export function fieldLabel(source: string, key: string): string {
  const form = LEAD_FORM_IDS.find((id) => LEAD_SOURCES[id] === source);
  const formLabels: Readonly<Record<string, string>> | undefined = form ? FORM_FIELD_LABELS[form] : undefined;
  if (formLabels && Object.hasOwn(formLabels, key)) return formLabels[key]!;
  if (form === 'roi' && Object.hasOwn(WORKED_OUT_BY_THE_ROI_PAGE, key)) return WORKED_OUT_BY_THE_ROI_PAGE[key]!;
  return Object.hasOwn(SENT_BY_THE_BROWSER, key) ? SENT_BY_THE_BROWSER[key]! : key;
}

// The link's other tracking words, named as the campaign and source are: what they are, then the
// word itself, which is what an ad platform's report calls them.
const TRACKING_WORDS: Readonly<Record<string, string>> = {
  utm_term: 'Keyword (utm_term)',
  utm_content: 'Ad content (utm_content)',
  gclid: 'Google Ads click (gclid)',
  fbclid: 'Facebook ad click (fbclid)',
  msclkid: 'Microsoft Ads click (msclkid)',
};

/** The label of a tracking word of the link a lead came by that has no line of its own. */
export function trackingLabel(key: string): string {
  return Object.hasOwn(TRACKING_WORDS, key) ? TRACKING_WORDS[key]! : key;
}
