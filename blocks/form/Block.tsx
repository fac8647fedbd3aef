// The `form` block: the home, contact or landing lead form, with the texts around it from the page YAML.
// Once the home or contact form is accepted, the visitor is offered a time in our calendar under it;
// the landing form moves on to the thank-you page, which offers it there (the visitor's name, e-mail
// and lead id go along in the tab's sessionStorage).
import { useId, useState } from 'react';
import type { FormBlock } from '../../generated/content-types.ts';
import { contactFormSpec } from '../../forms/contact-form.ts';
import type { LeadFormSpec } from '../../forms/form-spec.ts';
import { homeFormSpec } from '../../forms/home-form.ts';
import { landingFormSpec } from '../../forms/landing-form.ts';
import { LeadForm } from '../../forms/LeadForm.tsx';
import { LeadFormSection } from '../../forms/LeadFormSection.tsx';
import type { LeadFormId } from '../../lead/rules.ts';
import { useLeadForm } from '../../forms/use-lead-form.ts';
import { BookingOffer } from '../../forms/booking/BookingOffer.tsx';
import { keepBookingLead } from '../../forms/booking/booking-lead-store.ts';
import type { BookingLead } from '../../forms/booking/booking-page.ts';
import { readBrowserStorage } from '../../forms/browser-world.ts';

export default function Form(block: FormBlock) {
  // Each form keeps its own state: a different `form` is a different component instance.
  switch (block.form) {
    case 'home':
      return <StandardLeadForm key="home" spec={homeFormSpec} block={block} />;
    case 'contact':
      return <StandardLeadForm key="contact" spec={contactFormSpec} block={block} />;
    case 'landing':
      return <StandardLeadForm key="landing" spec={landingFormSpec} block={block} />;
  }
}

function StandardLeadForm<F extends LeadFormId>({ spec, block }: { spec: LeadFormSpec<F>; block: FormBlock }) {
  const headingId = useId();
  const [lead, setLead] = useState<BookingLead>();
  const engine = useLeadForm(spec, {
    onSuccess: (data, { leadId }) => {
      const sent = { leadId, name: String(data.name), email: String(data.email) };
      // The landing form leaves for the thank-you page, which reads this back.
      if (spec.redirectOnSuccess) keepBookingLead(readBrowserStorage('sessionStorage'), sent);
      else setLead(sent);
    },
  });
  return (
    <LeadFormSection
      id={block.id}
      tone={block.tone}
      eyebrow={block.eyebrow}
      heading={block.heading}
      headingId={headingId}
      intro={block.intro}
      layout={spec.layout}
    >
      <LeadForm engine={engine} labelledBy={headingId} consent={block.consent} links={block.links} />
      {lead ? <BookingOffer key={lead.leadId ?? lead.email} lead={lead} /> : null}
    </LeadFormSection>
  );
}
