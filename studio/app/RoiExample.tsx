// Beside the ROI numbers: what the calculator would tell a few typical visitors with the numbers as
// they are in the form, recomputed on every change by the same engine the site and the relay use.
// (The calculator page itself shows results only after a visitor sends the form, so a preview of the
// page would show nothing that depends on these numbers.)
import { css } from '@emotion/react';
import { calculateRoi } from '../../lead/roi/engine.ts';
import { buildRoiParameters, checkRoiParameters, type RoiParametersContent } from '../../lead/roi/parameters.ts';
import { formatRoiResult } from '../../forms/roi/format.ts';
import { SAMPLE_VISITORS } from './roi-samples.ts';
import { color, ui } from './ui.ts';

export function RoiExample({ data }: { data: unknown }) {
  let parameters;
  try {
    parameters = buildRoiParameters(data as RoiParametersContent);
  } catch {
    parameters = undefined;
  }
  const problems = parameters ? checkRoiParameters(parameters) : ['some numbers are missing'];
  return (
    <section id="preview" tabIndex={-1} aria-labelledby="roi-example-title" css={css({ alignSelf: 'start', position: 'sticky', top: 8 })}>
      <h2 id="roi-example-title" css={css({ fontSize: 16, margin: '0 0 6px' })}>
        What the calculator tells visitors
      </h2>
      <p css={ui.help}>Worked out with the numbers in the form, as you change them.</p>
      {problems.length > 0 || !parameters ? (
        <p role="status" css={ui.banner}>
          No example until the numbers are complete: {problems.join('; ')}.
        </p>
      ) : (
        <table
          css={css({
            borderCollapse: 'collapse',
            width: '100%',
            marginTop: 8,
            fontSize: 14,
            '& th, & td': { padding: '6px 8px', borderBottom: `1px solid ${color.border}`, textAlign: 'right' },
            '& th:first-of-type, & td:first-of-type': { textAlign: 'left' },
          })}
        >
          <thead>
            <tr>
              <th scope="col">Visitor</th>
              <th scope="col">Extra revenue a year</th>
              <th scope="col">Labour savings a year</th>
              <th scope="col">ROI</th>
            </tr>
          </thead>
          <tbody>
            {SAMPLE_VISITORS.map(({ who, inputs }) => {
              // Printed as the calculator's result screen prints them.
              const result = formatRoiResult(calculateRoi(inputs, parameters));
              return (
                <tr key={who}>
                  <th scope="row" css={css({ fontWeight: 400 })}>
                    {who}
                  </th>
                  <td>{result.revenueIncrease}</td>
                  <td>{result.laborSavings}</td>
                  <td>{result.roi}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </section>
  );
}
