// The prerendered markup of the lead forms: what a visitor without JavaScript gets.
import { ThemeProvider } from '@emotion/react';
import { SHIPPED_ROI_PARAMETERS } from '../../content-model/testing/shipped-content.ts';
import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import type { FormBlock } from '../../generated/content-types.ts';
import { SiteProvider, type SiteData } from '../../ui/page/site-context.tsx';
import { createTheme } from '../../ui/theme.ts';
import { LeadForm } from '../../forms/LeadForm.tsx';
import { useLeadForm } from '../../forms/use-lead-form.ts';
import { createRoiFormSpec } from '../../forms/roi/roi-form.ts';
import Form from './Block.tsx';

function render(children: ReactNode, leadEndpoint = '/api/leads', extra: Partial<SiteData> = {}) {
  const site = { bookingUrl: 'https://booking.example.com/premier', leadEndpoint, ...extra } as SiteData;
  const html = renderToStaticMarkup(
    <ThemeProvider theme={createTheme()}>
      <SiteProvider site={site}>
        <MemoryRouter>{children}</MemoryRouter>
      </SiteProvider>
    </ThemeProvider>,
  );
  return html.replace(/<style[^>]*>.*?<\/style>/g, '');
}

const HOME: FormBlock = {
  type: 'form',
  form: 'home',
  heading: 'Get Your Free Consultation',
  consent: 'By submitting this form, you agree to receive communications.',
  links: [{ label: 'calculate your ROI first', href: '/calculator', variant: 'ghost' }],
};

function tagOf(html: string, pattern: RegExp): string {
  const tag = html.match(pattern)?.[0];
  if (!tag) throw new Error(`no tag matches ${pattern}`);
  return tag;
}

describe('prerendered lead form', () => {
  it('is a real POST form to the lead endpoint, named by its heading', () => {
    const html = render(<Form {...HOME} />);
    const form = tagOf(html, /<form[^>]*>/);
    expect(form).toContain('method="post"');
    expect(form).toContain('action="/api/leads"');
    expect(form).not.toContain('novalidate');
    const labelledBy = form.match(/aria-labelledby="([^"]+)"/)?.[1];
    expect(html).toContain(`<h2 id="${labelledBy}"`);
    expect(html).toMatch(new RegExp(`<h2 id="${labelledBy}"[^>]*>Get Your Free Consultation</h2>`));
  });

  it('names its source in a hidden field, as the JSON payload does', () => {
    expect(render(<Form {...HOME} />)).toContain('<input type="hidden" name="source" value="Homepage Simple Lead Form"/>');
  });

  it("carries the schema's bounds as native constraints", () => {
    const html = render(<Form {...HOME} />);
    expect(tagOf(html, /<input[^>]*name="name"[^>]*>/)).toMatch(/required=""[^>]*type="text"[^>]*minLength="2"[^>]*maxLength="100"/);
    expect(tagOf(html, /<input[^>]*name="email"[^>]*>/)).toMatch(/type="email"[^>]*maxLength="255"/);
    expect(tagOf(html, /<input[^>]*name="phone"[^>]*>/)).toMatch(/type="tel"[^>]*minLength="10"[^>]*maxLength="20"/);
    expect(tagOf(html, /<input[^>]*name="company"[^>]*>/)).toMatch(/minLength="2"[^>]*maxLength="200"/);
  });

  it('ties each visible label to its field', () => {
    const html = render(<Form {...HOME} />);
    for (const [label, name] of [
      ['Full Name', 'name'],
      ['Business Email', 'email'],
      ['Phone Number', 'phone'],
      ['Company Name', 'company'],
    ]) {
      const id = tagOf(html, new RegExp(`<input[^>]*name="${name}"[^>]*>`)).match(/id="([^"]+)"/)?.[1];
      expect(html).toMatch(new RegExp(`<label for="${id}"[^>]*>${label}</label>`));
    }
  });

  it('hides the honeypot from people and assistive technology without display:none alone', () => {
    const html = render(<Form {...HOME} />);
    const honeypot = tagOf(html, /<input[^>]*name="website"[^>]*>/);
    expect(honeypot).toContain('tabindex="-1"');
    expect(honeypot).toContain('autoComplete="off"');
    expect(html).toMatch(/<div aria-hidden="true"[^>]*><label[^>]*>Website \(leave this empty\)<\/label><input[^>]*name="website"/);
    expect(html).not.toContain('display:none');
  });

  it('shows the button, the link and the consent notice', () => {
    const html = render(<Form {...HOME} />);
    expect(html).toMatch(/<button type="submit"[^>]*><span [^>]*hidden=""[^>]*><\/span>Get Started Now<\/button>/);
    expect(html).toMatch(/<a[^>]*href="\/calculator"[^>]*>calculate your ROI first<\/a>/);
    expect(html).toContain('By submitting this form, you agree to receive communications.');
  });

  it('gives two forms on one page different ids', () => {
    const html = render(
      <>
        <Form {...HOME} />
        <Form {...HOME} />
      </>,
    );
    const ids = [...html.matchAll(/ id="([^"]+)"/g)].map((match) => match[1]);
    expect(ids.length).toBeGreaterThan(10);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('has no action in demo mode (PUBLIC_LEAD_ENDPOINT empty)', () => {
    expect(tagOf(render(<Form {...HOME} />, ''), /<form[^>]*>/)).not.toContain('action=');
  });

  it('contact: the optional company field says so through aria-describedby; the service select is required', () => {
    const html = render(<Form type="form" form="contact" heading="Send Us a Message" />);
    const company = tagOf(html, /<input[^>]*name="company"[^>]*>/);
    const describedBy = company.match(/aria-describedby="([^"]+)"/)?.[1];
    expect(company).not.toContain('required');
    expect(html).toContain(`<span id="${describedBy}"`);
    expect(tagOf(html, /<select[^>]*name="service_interest"[^>]*>/)).toContain('required=""');
    expect(html).toContain('<option value="AI Voice Services">AI Voice Services</option>');
    expect(tagOf(html, /<textarea[^>]*name="message"[^>]*>/)).toMatch(/minLength="10"[^>]*maxLength="2000"/);
  });

  it('landing: the phone pattern and the required challenge', () => {
    const html = render(<Form type="form" form="landing" heading="Claim Your Free 30-Minute Strategy Session" />);
    expect(tagOf(html, /<input[^>]*name="phone"[^>]*>/)).toContain(String.raw`pattern="\+?[\d\s\-\(\)\.]+"`);
    expect(tagOf(html, /<textarea[^>]*name="challenge"[^>]*>/)).toMatch(/required=""[^>]*maxLength="1000"/);
    expect(html).toMatch(/<button type="submit"[^>]*><span [^>]*hidden=""[^>]*><\/span>Claim My Free Strategy Session<\/button>/);
  });
});

function RoiForm() {
  const engine = useLeadForm(createRoiFormSpec(SHIPPED_ROI_PARAMETERS));
  return <LeadForm engine={engine} labelledBy="roi-heading" />;
}

describe('prerendered ROI form', () => {
  const html = render(<RoiForm />);

  it('has the Contact Information, Business Information and Additional Information groups', () => {
    for (const legend of ['Contact Information', 'Business Information', 'Additional Information']) {
      expect(html).toMatch(new RegExp(`<fieldset[^>]*><legend[^>]*>${legend}</legend>`));
    }
  });

  it('uses the number input attributes for revenue, salary and team size', () => {
    expect(tagOf(html, /<input[^>]*name="currentRevenue"[^>]*>/)).toMatch(/type="number"[^>]*min="0"[^>]*step="1000"/);
    expect(tagOf(html, /<input[^>]*name="averageSalary"[^>]*>/)).toMatch(/type="number"[^>]*min="0"[^>]*step="1000"/);
    expect(tagOf(html, /<input[^>]*name="teamSize"[^>]*>/)).toMatch(/type="number"[^>]*min="1"/);
  });

  it('shows industry values with readable labels', () => {
    expect(html).toContain('<option value="real_estate">Real Estate</option>');
    expect(html).toContain('<option value="&lt;5">Less than 5 hours</option>');
  });

  it('names the ROI source and button', () => {
    expect(html).toContain('name="source" value="AI ROI Calculator + Lead Form"');
    expect(html).toMatch(/<button type="submit"[^>]*><span [^>]*hidden=""[^>]*><\/span>Get My ROI Analysis &amp; Book Session<\/button>/);
  });
});

describe('call me back now, prerendered', () => {
  const callbackConsent = {
    label: 'Call me back now',
    text: 'By ticking this box, I agree that Premier AI Consulting may call me using an automated or artificial voice.',
    version: '2026-11',
  };

  it.each(['home', 'contact', 'landing'] as const)('%s form: an unticked, optional tick box, its label and text tied to it', (form) => {
    const html = render(<Form {...HOME} form={form} />, '/api/leads', { callbackConsent });
    const box = tagOf(html, /<input[^>]*type="checkbox"[^>]*>/);
    expect(box).toContain('name="callback_requested"');
    expect(box).toContain('value="yes"');
    expect(box).not.toContain('checked');
    expect(box).not.toContain('required');
    const id = box.match(/id="([^"]+)"/)?.[1];
    expect(html).toContain(`<label for="${id}"`);
    expect(html).toMatch(new RegExp(`<label for="${id}"[^>]*>Call me back now</label>`));
    const describedBy = box.match(/aria-describedby="([^"]+)"/)?.[1]?.split(' ') ?? [];
    const textId = describedBy.find((candidate) => html.includes(`<p id="${candidate}"`));
    expect(html).toMatch(new RegExp(`<p id="${textId}"[^>]*>${callbackConsent.text}</p>`));
    // Posted without JavaScript, the version of the words shown goes with it.
    expect(html).toContain('<input type="hidden" name="callback_consent_version" value="2026-11"/>');
  });

  it('the ROI form has it too', () => {
    function RoiForm() {
      const engine = useLeadForm(createRoiFormSpec(SHIPPED_ROI_PARAMETERS));
      return <LeadForm engine={engine} labelledBy="h" />;
    }
    expect(render(<RoiForm />, '/api/leads', { callbackConsent })).toContain('name="callback_requested"');
  });

  it('no tick box when the site settings offer no call-back wording', () => {
    expect(render(<Form {...HOME} />)).not.toContain('callback_requested');
  });
});
