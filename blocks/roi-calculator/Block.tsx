// The `roi-calculator` block (/calculator): the ROI lead form, then the result screen after success,
// where the visitor can pick a time in our calendar. The success toast says what happens next; once
// a meeting is booked in the page, a second one says when it is.
import { useMemo, useId, useState } from 'react';
import { useTheme } from '@emotion/react';
import roiContent from 'virtual:content/roi';
import type { RoiCalculatorBlock } from '../../generated/content-types.ts';
import { LeadForm } from '../../forms/LeadForm.tsx';
import { LeadFormSection } from '../../forms/LeadFormSection.tsx';
import { useLeadForm } from '../../forms/use-lead-form.ts';
import { calculateRoi, type RoiResult } from '../../lead/roi/engine.ts';
import { buildRoiParameters } from '../../lead/roi/parameters.ts';
import { RoiResultView } from '../../forms/roi/RoiResult.tsx';
import { createRoiFormSpec } from '../../forms/roi/roi-form.ts';
import type { BookingLead } from '../../forms/booking/booking-page.ts';
import { showToast } from '../../forms/notify.ts';
import { SUCCESS_TITLE } from '../../forms/toasts.ts';
import { useSite } from '../../ui/page/site-context.tsx';

const roiParameters = buildRoiParameters(roiContent);

export default function RoiCalculator({ id, eyebrow, heading, intro, tone, consent }: RoiCalculatorBlock) {
  const headingId = useId();
  const theme = useTheme();
  const { booking } = useSite();
  const roiFormSpec = useMemo(() => createRoiFormSpec(roiParameters, booking?.roiSent), [booking?.roiSent]);
  const [result, setResult] = useState<{ roi: RoiResult; lead: BookingLead } | null>(null);
  // Success (or demo success) switches to the result screen; the engine has cleared the fields.
  const engine = useLeadForm(roiFormSpec, {
    onSuccess: (values, { leadId }) =>
      setResult({ roi: calculateRoi(values, roiParameters), lead: { leadId, name: values.name, email: values.email } }),
  });
  const calculateAnother = () => {
    setResult(null);
    engine.reset();
  };
  const confirmBooking = (confirmation: string) =>
    void showToast({ title: SUCCESS_TITLE, description: confirmation, variant: 'success' }, theme);
  return (
    <LeadFormSection
      id={id}
      tone={tone}
      eyebrow={eyebrow}
      heading={heading}
      headingId={headingId}
      intro={intro}
      layout={roiFormSpec.layout}
      maxWidth="content"
    >
      {result ? (
        <RoiResultView
          result={result.roi}
          lead={result.lead}
          investmentUsd={roiParameters.investmentUsd}
          onCalculateAnother={calculateAnother}
          onBooked={confirmBooking}
        />
      ) : (
        <LeadForm engine={engine} labelledBy={headingId} consent={consent} />
      )}
    </LeadFormSection>
  );
}

/**
 * The result screen, rendered while prerendering for its style rules alone (never put in the page):
 * with them in the page, the result appears on a slow phone without adding a rule (see
 * `LaterScreens`). The figures are an example; the rules do not depend on them.
 */
RoiCalculator.laterScreens = function RoiResultStyles() {
  const example = calculateRoi(
    { currentRevenue: 2_000_000, industry: '', teamSize: 10, averageSalary: 60_000, manualHours: '' },
    roiParameters,
  );
  return (
    <RoiResultView
      whole
      result={example}
      lead={{ name: 'Example', email: 'example@example.com' }}
      investmentUsd={roiParameters.investmentUsd}
      onCalculateAnother={() => {}}
    />
  );
};
