// How the studio names a person in its sentences ("published by Mia, approved by Sam"). A team
// account is known only by its e-mail address, so the part before the @ is the name the person is
// known by, its words capitalised ("mia.lopez@example.com" → "Mia Lopez"); anything else (the local
// editor's name, a git author) is already a name, and is given back as it is.

import { listWords } from '../back-office/list-words.ts';

export function personName(user: string): string {
  const at = user.lastIndexOf('@');
  if (at <= 0) return user;
  const words = user
    .slice(0, at)
    .split(/[._+-]+/)
    .filter(Boolean);
  return words.length === 0 ? user : words.map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join(' ');
}

/** "Mia", "Mia and Sam", "Mia, Sam and Ana": people named as the studio names them. */
export function peopleWords(users: readonly string[]): string {
  const names = [...new Set(users.map(personName))];
  return listWords(names);
}
