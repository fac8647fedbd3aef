import { describe, expect, it } from 'vitest';
import { timeAgainstBudget } from '../../lead/testing/machine-speed.ts';
import { parseYamlSource } from './yaml-source.ts';

/** The "billion laughs": nine lists, each repeating the one before nine times (387 million words once expanded). */
const ALIAS_BOMB = `${['a: &a [x,x,x,x,x,x,x,x,x]', ...'bcdefghi'.split('').map((name, i) => `${name}: &${name} [${Array(9).fill(`*${'abcdefghi'[i]}`).join(',')}]`)].join('\n')}\n`;

describe('parseYamlSource', () => {
  it('reads anchors used a few times', () => {
    const source = parseYamlSource('x.yaml', 'a: &a [1, 2]\nb: *a\n');
    expect(source.syntaxErrors).toEqual([]);
    expect(source.data).toEqual({ a: [1, 2], b: [1, 2] });
  });

  it('turns anchors repeated without end into a located mistake, within 100 ms on an idle machine', async () => {
    const { result: source, ms, budgetMs } = await timeAgainstBudget(100, () => parseYamlSource('bomb.yaml', ALIAS_BOMB, 3));
    expect(ms).toBeLessThan(budgetMs);
    expect(source.data).toBeUndefined();
    expect(source.syntaxErrors).toEqual([
      {
        line: 5,
        column: 8,
        message:
          'this file repeats anchors (&name / *name) too many times: write each part out in full instead of repeating it with *name.',
      },
    ]);
  });
});
