// People as the studio names them: a team account by the part of its e-mail address a person
// recognises, anyone else by the name given.
import { describe, expect, it } from 'vitest';
import { peopleWords, personName } from './person-name.ts';

describe('a person’s name', () => {
  it('is the e-mail address’s name part, its words capitalised', () => {
    expect(personName('mia@example.com')).toBe('Mia');
    expect(personName('sam.okafor@example.com')).toBe('Sam Okafor');
    expect(personName('li_wei+studio@example.com')).toBe('Li Wei Studio');
  });

  it('is a name as given when it is no e-mail address', () => {
    expect(personName('Dev Eloper')).toBe('Dev Eloper');
    expect(personName('local editor')).toBe('local editor');
  });

  it('lists people once each, in words', () => {
    expect(peopleWords(['mia@example.com', 'sam@example.com', 'mia@example.com', 'ana@example.com'])).toBe('Mia, Sam and Ana');
  });
});
