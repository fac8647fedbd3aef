// Pictures uploaded in the content studio live in public/images/uploads/ from the moment they are
// sent. Only those a published file names may reach the build, the live site and git: the build
// (which copies them) and a publish (which commits them) find them with this one rule.

/** `/images/uploads/<file>` in any text: a YAML value, front matter, Markdown `![…](…)` or HTML `src="…"`. */
const UPLOAD_REFERENCE = /\/images\/uploads\/([^\s"'`()<>?#\\]+)/g;

/** The uploads (paths below public/images/uploads/, with `/`) that `text` names; never one that climbs out. */
export function uploadsNamedIn(text: string): string[] {
  const names: string[] = [];
  for (const [, raw] of text.matchAll(UPLOAD_REFERENCE)) {
    const name = decodeName(raw!);
    if (name.split('/').every((part) => part !== '' && part !== '.' && part !== '..')) names.push(name);
  }
  return names;
}

function decodeName(name: string): string {
  try {
    return decodeURIComponent(name);
  } catch {
    return name;
  }
}
