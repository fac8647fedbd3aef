// The `roi-calculator` block (/calculator): the ROI lead form, then the result screen after success.
import { useId, useState } from 'react';
import roiContent from 'virtual:content/roi';
import type { RoiCalculatorBlock } from '../../generated/content-types.ts';
import { LeadForm } from '../../forms/LeadForm.tsx';
import { LeadFormSection } from '../../forms/LeadFormSection.tsx';
import { useLeadForm } from '../../forms/use-lead-form.ts';
import { calculateRoi, type RoiResult } from '../../lead/roi/engine.ts';
import { buildRoiParameters } from '../../lead/roi/parameters.ts';
import { RoiResultView } from '../../forms/roi/RoiResult.tsx';
import { createRoiFormSpec } from '../../forms/roi/roi-form.ts';

const roiParameters = buildRoiParameters(roiContent);
const roiFormSpec = createRoiFormSpec(roiParameters);

export default function RoiCalculator({ id, eyebrow, heading, intro, tone, consent }: RoiCalculatorBlock) {
  const headingId = useId();
  const [result, setResult] = useState<RoiResult | null>(null);
  // Success (or demo success) switches to the result screen; the engine has cleared the fields.
  const engine = useLeadForm(roiFormSpec, { onSuccess: (values) => setResult(calculateRoi(values, roiParameters)) });
  const calculateAnother = () => {
    setResult(null);
    engine.reset();
  };
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
        <RoiResultView result={result} investmentUsd={roiParameters.investmentUsd} onCalculateAnother={calculateAnother} />
      ) : (
        <LeadForm engine={engine} labelledBy={headingId} consent={consent} />
      )}
    </LeadFormSection>
  );
}
