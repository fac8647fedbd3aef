// Static blocks are never hydrated, so state, effects or event handlers in one would silently do
// nothing in the browser. A block that needs them must say `"interactive": true` in its schema.json.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { BlockType } from '../generated/content-types.ts';
import { blockRegistry, isInteractive } from './block-registry.ts';

const BROWSER_ONLY_CODE =
  /\buse(State|Effect|LayoutEffect|Reducer|SyncExternalStore|Transition|ActionState|Optimistic)\b|\son(Click|Change|Submit|Input|Key\w+|Focus|Blur|Pointer\w+|Mouse\w+|Touch\w+|Scroll|Toggle)=\{/;
const types = Object.keys(blockRegistry) as BlockType[];

function source(type: BlockType) {
  return readFileSync(path.join(import.meta.dirname, '..', 'blocks', type, 'Block.tsx'), 'utf8');
}

describe('the block registry', () => {
  it.each(types.filter((type) => !isInteractive(type)))('%s is static and its component has no state, effect or handler', (type) => {
    const found = BROWSER_ONLY_CODE.exec(source(type));
    expect(
      found?.[0],
      `blocks/${type}/Block.tsx uses ${found?.[0]}: add "interactive": true to blocks/${type}/schema.json and run npm run generate`,
    ).toBeUndefined();
  });

  it('knows which blocks respond to the visitor: the lead form, the ROI calculator, the countdown, the not-found log and the thank-you page booking offer', () => {
    expect(types.filter(isInteractive).sort()).toEqual(['booking', 'countdown', 'form', 'not-found', 'roi-calculator']);
  });
});
