import { describe, expect, it } from 'vitest';
import { filterFromQuery, queryFromFilter } from './filter-query.ts';

describe('the inbox filter in the address', () => {
  it('reads back every filter it writes', () => {
    const filter = {
      q: 'ada',
      form: 'Contact Page Form',
      state: 'retrying',
      from: '2025-01-01',
      to: '2025-01-31',
      campaign: 'spring',
      source: 'linkedin',
    } as const;
    expect(filterFromQuery(queryFromFilter(filter))).toEqual(filter);
  });

  it.each([
    ['form=Unknown%20Form', {}],
    ['state=lost', {}],
    ['spam=maybe', {}],
    ['from=yesterday&to=2025-13', {}],
    ['q=%20%20&campaign=', {}],
    ['state=pending', {}],
    ['spam=yes&state=held', { state: 'held' }],
    ['state=spam', {}],
  ])('keeps only values the API accepts: %s', (query, expected) => {
    expect(filterFromQuery(new URLSearchParams(query))).toEqual(expected);
  });

  it('leaves empty values out of the query', () => {
    expect(queryFromFilter({ q: '', form: 'Contact Page Form', campaign: ' ' }).toString()).toBe('form=Contact+Page+Form');
  });
});
