// An article's form: its front matter's fields, then its text in Markdown (the file's body, which no
// schema describes).
import { FieldEditor } from '../fields/FieldEditor.tsx';
import type { Field } from '../fields/form-model.ts';
import { ObjectEditor } from '../fields/ObjectEditor.tsx';

export function ArticleForm({ root, data }: { root: Field; data: unknown }) {
  const { frontMatter, body } = data as { frontMatter: unknown; body: string };
  return (
    <>
      <ObjectEditor field={{ ...root, label: 'Article details' }} value={frontMatter} path={['frontMatter']} bare />
      <FieldEditor
        field={{
          key: 'body',
          label: 'Article text',
          help: 'The article in Markdown: blank lines separate paragraphs, "## " starts a heading, **bold**, [links](/contact).',
          required: true,
          kind: 'markdown',
        }}
        value={body}
        path={['body']}
      />
    </>
  );
}
