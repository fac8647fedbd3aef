// The picture library beside a picture field: every picture in public/images/ to choose from, a
// filter, and an upload (PNG, JPEG or WebP; the server checks the file itself and stores a web-ready copy).
import { css } from '@emotion/react';
import { useEffect, useId, useState } from 'react';
import { api, ApiError, type StoredImage } from '../api.ts';
import { color, ui } from '../ui.ts';

/** `onPick`: a picture was chosen from the library or uploaded. */
export function ImagePicker({ onPick }: { onPick: (image: StoredImage) => void }) {
  const [images, setImages] = useState<StoredImage[] | null>(null);
  const [error, setError] = useState('');
  const [uploading, setUploading] = useState(false);
  const [filter, setFilter] = useState('');
  const uploadId = useId();

  useEffect(() => {
    api.images().then(
      (answer) => setImages(answer.images),
      (failure: unknown) => setError(failure instanceof ApiError ? failure.message : 'The pictures could not be listed.'),
    );
  }, []);

  const upload = async (file: File) => {
    setUploading(true);
    setError('');
    try {
      const stored = await api.upload(file);
      onPick(stored);
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.message : 'The upload failed.');
    } finally {
      setUploading(false);
    }
  };

  const shown = (images ?? []).filter((image) => image.src.toLowerCase().includes(filter.toLowerCase()));
  return (
    <div css={css({ border: `1px solid ${color.strongBorder}`, borderRadius: 8, padding: 10, background: color.surface })}>
      <div css={ui.field}>
        <label htmlFor={uploadId} css={ui.label}>
          Upload a picture (PNG, JPEG or WebP, at most 10 MB)
        </label>
        <input
          id={uploadId}
          type="file"
          accept="image/png,image/jpeg,image/webp"
          disabled={uploading}
          onChange={(event) => event.target.files?.[0] && void upload(event.target.files[0])}
        />
        {uploading && <p role="status">Uploading and preparing the picture…</p>}
      </div>
      {error && (
        <p role="alert" css={ui.error}>
          {error}
        </p>
      )}
      <label css={ui.field}>
        <span css={ui.label}>Find a picture in the library</span>
        <input css={ui.input} type="search" value={filter} onChange={(event) => setFilter(event.target.value)} />
      </label>
      {images === null && !error && <p role="status">Loading pictures…</p>}
      <ul
        css={css({
          listStyle: 'none',
          padding: 0,
          margin: 0,
          display: 'grid',
          gap: 8,
          gridTemplateColumns: 'repeat(auto-fill, minmax(130px, 1fr))',
          maxHeight: 320,
          overflow: 'auto',
        })}
      >
        {shown.map((image) => (
          <li key={image.src}>
            <button
              type="button"
              css={[ui.iconButton, css({ width: '100%', padding: 4, display: 'grid', gap: 4 })]}
              onClick={() => onPick(image)}
            >
              <img src={image.src} alt="" loading="lazy" css={css({ width: '100%', height: 80, objectFit: 'cover' })} />
              <span css={css({ fontSize: 12, wordBreak: 'break-all' })}>
                {image.src.replace('/images/', '')} ({image.width}×{image.height})
              </span>
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
