// The navigator: every page, article and settings file, grouped and searchable, with its address and
// state (draft, new, deleted, edited), and the buttons that create a page or an article.
import { css } from '@emotion/react';
import { useMemo, useState } from 'react';
import { CONTENT_KINDS, isCollectionKind, KIND_ORDER } from '../../../content-model/kinds.ts';
import type { Entry } from '../api.ts';
import { CreateForm } from '../dialogs/CreateForm.tsx';
import { color, ui } from '../ui.ts';

export function Navigator({
  entries,
  openPath,
  onOpen,
  onCreated,
  hidden,
}: {
  entries: Entry[];
  openPath: string | null;
  onOpen: (path: string) => void;
  onCreated: () => Promise<void>;
  hidden: boolean;
}) {
  const [query, setQuery] = useState('');
  const [creating, setCreating] = useState<'page' | 'article' | null>(null);
  const shown = useMemo(() => {
    const words = query.trim().toLowerCase();
    return entries.filter(
      (entry) => !words || `${entry.name} ${entry.title} ${entry.address ?? ''} ${entry.path}`.toLowerCase().includes(words),
    );
  }, [entries, query]);
  const groups: [string, Entry[]][] = [
    ['Settings', shown.filter((entry) => !isCollectionKind(entry.kind))],
    ...KIND_ORDER.filter(isCollectionKind).map((kind): [string, Entry[]] => [
      CONTENT_KINDS[kind].title,
      shown.filter((entry) => entry.kind === kind),
    ]),
  ];
  return (
    <nav
      id="navigator"
      aria-label="Content"
      css={css({
        borderRight: `1px solid ${color.border}`,
        background: color.panel,
        padding: 12,
        overflow: 'auto',
        '@media (max-width: 899px)': hidden ? { display: 'none' } : {},
        '@media (min-width: 900px)': { maxHeight: 'calc(100vh - 56px)', position: 'sticky', top: 0 },
      })}
    >
      <label css={ui.field}>
        <span css={ui.label}>Search pages and articles</span>
        <input css={ui.input} type="search" value={query} onChange={(event) => setQuery(event.target.value)} />
      </label>
      <div css={css({ display: 'flex', gap: 6, flexWrap: 'wrap', marginBottom: 10 })}>
        <button
          type="button"
          css={ui.secondaryButton}
          aria-expanded={creating === 'page'}
          onClick={() => setCreating(creating === 'page' ? null : 'page')}
        >
          New page
        </button>
        <button
          type="button"
          css={ui.secondaryButton}
          aria-expanded={creating === 'article'}
          onClick={() => setCreating(creating === 'article' ? null : 'article')}
        >
          New article
        </button>
      </div>
      {creating && (
        <CreateForm
          kind={creating}
          pages={entries.filter((entry) => entry.kind === creating && !entry.deleted)}
          onCancel={() => setCreating(null)}
          onCreated={async (path) => {
            setCreating(null);
            await onCreated();
            onOpen(path);
          }}
        />
      )}
      {groups.map(([title, list]) => (
        <section key={title} aria-labelledby={`nav-${title}`}>
          <h2
            id={`nav-${title}`}
            css={css({ fontSize: 13, textTransform: 'uppercase', letterSpacing: '0.05em', color: color.mutedText, margin: '12px 0 4px' })}
          >
            {title}
          </h2>
          {list.length === 0 ? (
            <p css={ui.help}>None{query ? ' match' : ''}.</p>
          ) : (
            <ul css={css({ listStyle: 'none', margin: 0, padding: 0 })}>
              {list.map((entry) => (
                <li key={entry.path}>
                  <a
                    href={`?file=${encodeURIComponent(entry.path)}`}
                    aria-current={entry.path === openPath ? 'page' : undefined}
                    onClick={(event) => {
                      event.preventDefault();
                      onOpen(entry.path);
                    }}
                    css={css({
                      display: 'block',
                      padding: '6px 8px',
                      borderRadius: 6,
                      color: color.text,
                      textDecoration: 'none',
                      '&[aria-current="page"]': { background: color.accentTint, fontWeight: 700 },
                      '&:hover': { background: color.accentLight },
                      '&:focus-visible': { outline: `3px solid ${color.accent}` },
                    })}
                  >
                    <span css={css({ display: 'block', textDecoration: entry.deleted ? 'line-through' : 'none' })}>{entry.name}</span>
                    <span css={css({ display: 'flex', gap: 4, flexWrap: 'wrap', fontSize: 13, color: color.mutedText })}>
                      {entry.address && <code>{entry.address}</code>}
                      {entry.markedDraft && <span css={ui.badge}>Draft</span>}
                      {entry.isNew ? (
                        <span css={ui.badge}>New</span>
                      ) : entry.deleted ? (
                        <span css={ui.badge}>Deleted</span>
                      ) : entry.edited ? (
                        <span css={ui.badge}>Edited</span>
                      ) : null}
                    </span>
                  </a>
                </li>
              ))}
            </ul>
          )}
        </section>
      ))}
    </nav>
  );
}
