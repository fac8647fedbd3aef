// The `form` block: the home, contact or landing lead form, with the texts around it from the page YAML.
import { useId } from 'react';
import type { FormBlock } from '../../generated/content-types.ts';
import { contactFormSpec } from '../../forms/contact-form.ts';
import type { LeadFormSpec } from '../../forms/form-spec.ts';
import { homeFormSpec } from '../../forms/home-form.ts';
import { landingFormSpec } from '../../forms/landing-form.ts';
import { LeadForm } from '../../forms/LeadForm.tsx';
import { LeadFormSection } from '../../forms/LeadFormSection.tsx';
import type { LeadFormId } from '../../lead/rules.ts';
import { useLeadForm } from '../../forms/use-lead-form.ts';

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
  const engine = useLeadForm(spec);
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
    </LeadFormSection>
  );
}
