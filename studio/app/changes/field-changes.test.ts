import { describe, expect, it } from 'vitest';
import { jargonIn } from '../testing/plain-words.ts';
import { homePage, siteFormModel } from '../../testing/site-model.ts';
import { changeSentence, describeChanges, matchItems, wordDiff, type FieldChange } from './field-changes.ts';

const model = siteFormModel();
type Page = { title: string; noindex?: boolean; blocks: Record<string, unknown>[] };
const home: Page = homePage();
const copy = (): Page => structuredClone(home);

const noJargon = (changes: FieldChange[]) => {
  for (const change of changes) expect(jargonIn(changeSentence(change)), changeSentence(change)).toEqual([]);
};

describe('changes in the form’s words', () => {
  it('names a changed heading by its place in the form, with the words that went and came', () => {
    const after = copy();
    after.blocks[0]!.heading = 'Grow Your Business with Premier AI';
    const changes = describeChanges(model, 'page', home, after, 'Home');
    expect(changes).toEqual([
      {
        place: 'Home › Hero › Heading',
        kind: 'text',
        before: 'Transform Your Business with Premier AI',
        after: 'Grow Your Business with Premier AI',
        words: [
          { kind: 'removed', text: 'Transform' },
          { kind: 'added', text: 'Grow' },
          { kind: 'same', text: ' Your Business with Premier AI' },
        ],
      },
    ]);
    noJargon(changes);
  });

  it('says a block added or removed by its name, and does not show the blocks after it as changed', () => {
    const after = copy();
    after.blocks.splice(1, 0, { type: 'cta', heading: 'Book a call today', actions: [{ label: 'Book', href: 'booking' }] });
    const added = describeChanges(model, 'page', home, after, 'Home');
    expect(added).toEqual([{ place: 'Home', kind: 'added', what: 'Call to action', summary: 'Book a call today' }]);
    const removed = describeChanges(model, 'page', after, home, 'Home');
    expect(removed).toEqual([{ place: 'Home', kind: 'removed', what: 'Call to action', summary: 'Book a call today' }]);
    expect(changeSentence(added[0]!)).toBe('Home: Added: Call to action (Book a call today)');
    noJargon([...added, ...removed]);
  });

  it('says a block moved as moved, and descends into a block changed beside an added one', () => {
    const moved = copy();
    moved.blocks.push(moved.blocks.splice(1, 1)[0]!);
    expect(describeChanges(model, 'page', home, moved)).toEqual([
      { place: '', kind: 'moved', what: 'Statistics', from: 2, to: home.blocks.length },
    ]);
    const both = copy();
    both.blocks[1] = { ...both.blocks[1], heading: 'Our numbers' };
    both.blocks.unshift({ type: 'callout', heading: 'New offer' });
    const changes = describeChanges(model, 'page', home, both);
    expect(changes.map((change) => [change.kind, change.place])).toEqual([
      ['added', ''],
      ['text', 'Statistics › Heading'],
    ]);
  });

  it('numbers items of a list and tells two blocks of one name apart', () => {
    const after = copy();
    const stats = after.blocks.findIndex((block) => block.type === 'stats');
    (after.blocks[stats]!.items as { value: string }[])[1]!.value = '95%';
    expect(describeChanges(model, 'page', home, after).map((change) => change.place)).toEqual(['Statistics › Items › Item 2 › Value']);
    const twins = copy();
    twins.blocks.push(structuredClone(twins.blocks[0]!));
    const changed = structuredClone(twins);
    changed.blocks.at(-1)!.heading = 'Second hero';
    expect(describeChanges(model, 'page', twins, changed)[0]!.place).toBe(`Hero ${twins.blocks.length} › Heading`);
  });

  it('shows a picture changed by its thumbnail and description, and a description changed as words', () => {
    const before = copy();
    before.blocks.push({ type: 'rich-text', body: 'Our office.', image: { src: '/images/uploads/office.png', alt: 'The old office' } });
    const after = structuredClone(before);
    after.blocks.at(-1)!.image = { src: '/images/uploads/new-office.png', alt: 'Our new office in Austin' };
    const changes = describeChanges(model, 'page', before, after, 'About');
    expect(changes).toEqual([
      {
        place: 'About › Text section › Picture',
        kind: 'picture',
        before: { thumbnail: '/images/uploads/office.png', description: 'The old office' },
        after: { thumbnail: '/images/uploads/new-office.png', description: 'Our new office in Austin' },
      },
    ]);
    noJargon(changes);
    const words = structuredClone(before);
    words.blocks.at(-1)!.image = { src: '/images/uploads/office.png', alt: 'The office' };
    expect(describeChanges(model, 'page', before, words)[0]).toMatchObject({ kind: 'text', before: 'The old office', after: 'The office' });
  });

  it('says a choice by its label and a switch as on or off, never the value in the file', () => {
    const after = copy();
    after.blocks[0]!.variant = 'compact';
    after.noindex = true;
    const changes = describeChanges(model, 'page', home, after);
    const variant = model.blocks.find((block) => block.type === 'hero')!.fields.find((field) => field.key === 'variant')!;
    const label = (value: string) => variant.choices!.find((choice) => choice.value === value)!.label;
    expect(changes).toEqual([
      { place: 'Hide from search engines', kind: 'value', before: 'off', after: 'on' },
      { place: 'Hero › Variant', kind: 'value', before: label('feature'), after: label('compact') },
    ]);
    noJargon(changes);
  });

  it('says a new page is its blocks added, an article’s text by its label, and a change the form does not show as such', () => {
    const created = describeChanges(model, 'page', null, home, 'Spring');
    expect(created.filter((change) => change.kind === 'added')).toHaveLength(home.blocks.length);
    noJargon(created);
    const article = { frontMatter: { title: 'Voice agents' }, body: 'One two three.' };
    expect(describeChanges(model, 'article', article, { ...article, body: 'One two four.' })).toMatchObject([
      { place: 'Article text', kind: 'text', words: [{ kind: 'same', text: 'One two ' }, { kind: 'removed' }, { kind: 'added' }] },
    ]);
    expect(describeChanges(model, 'page', home, { ...home, unknownSetting: 1 })).toEqual([{ place: '', kind: 'unshown' }]);
  });
});

describe('the words of a text that changed', () => {
  it('joins neighbouring changed words into one run, and keeps the words around them', () => {
    expect(wordDiff('a b c d', 'a x y d')).toEqual([
      { kind: 'same', text: 'a ' },
      { kind: 'removed', text: 'b c' },
      { kind: 'added', text: 'x y' },
      { kind: 'same', text: ' d' },
    ]);
    expect(wordDiff('', 'New text')).toEqual([{ kind: 'added', text: 'New text' }]);
  });

  it('marks one word changed in a long text, keeping the rest', () => {
    const long = Array.from({ length: 3000 }, (_, index) => `word${index}`).join(' ');
    const parts = wordDiff(long, long.replace('word1500', 'changed'));
    expect(parts.filter((part) => part.kind !== 'same')).toEqual([
      { kind: 'removed', text: 'word1500' },
      { kind: 'added', text: 'changed' },
    ]);
  });

  it('shows a text rewritten but for a few common words as the old text gone and the new one come', () => {
    expect(wordDiff('Transform Your Business with Premier AI', 'Grow faster with AI that answers every call')).toEqual([
      { kind: 'removed', text: 'Transform Your Business with Premier AI' },
      { kind: 'added', text: 'Grow faster with AI that answers every call' },
    ]);
  });
});

describe('matching the items of a list', () => {
  it('matches identical items in order, so one inserted item is the only change', () => {
    const steps = matchItems(['a', 'b', 'c'], ['a', 'new', 'b', 'c'], () => true);
    expect(steps.filter((step) => step.kind !== 'same')).toEqual([{ kind: 'added', after: 1 }]);
  });
});
