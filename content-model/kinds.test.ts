// The kinds table answers what the studio asks of a kind, so adding a kind is one row of it.
import { expect, it } from 'vitest';
import { addressFieldOf, isCollectionKind, KIND_ORDER, newFileAddress } from './kinds.ts';

it('says which kinds are pages of the site, one file each', () => {
  expect(KIND_ORDER.filter(isCollectionKind)).toEqual(['page', 'article']);
});

it('names the field a page writes its own address in; an article’s follows from its name, and a singleton has none', () => {
  expect(addressFieldOf('page')).toBe('path');
  expect(addressFieldOf('article')).toBeUndefined();
  expect(addressFieldOf('site')).toBeUndefined();
  expect(addressFieldOf('roi')).toBeUndefined();
});

it('gives the address a new file starts with', () => {
  expect(newFileAddress('page', 'spring-offer')).toBe('/spring-offer');
  expect(newFileAddress('article', 'spring-offer')).toBe('/blog/spring-offer');
});
