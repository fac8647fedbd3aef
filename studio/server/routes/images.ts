// /api/images: the picture library for the picker (GET) and uploads (POST). An upload is the
// picture's bytes as the body (PNG, JPEG or WebP, or application/octet-stream; never JSON), at most
// the upload limit, with its file name in `?name=`; images.ts checks it from its bytes and stores it
// web-ready. The pictures themselves are served by routes/static-files.ts.
import { z } from 'zod';
import type { ImageLibrary } from '../images.ts';
import { MAX_UPLOAD_BYTES } from '../images.ts';
import type { StudioRoutes } from '../plugins/request-checks.ts';

export type ImageRoutesOptions = { images: ImageLibrary };

const uploadQuery = z.object({ name: z.string().optional() });
const picture = z.instanceof(Buffer, { error: 'The picture is missing: send its bytes as the body.' });

export const imageRoutes: StudioRoutes<ImageRoutesOptions> = async (app, { images }) => {
  app.get('/images', { config: { right: 'studio:edit' } }, async () => ({ images: images.list() }));

  app.post(
    '/images',
    {
      bodyLimit: MAX_UPLOAD_BYTES,
      config: { right: 'studio:edit', accepts: ['image'] },
      schema: { querystring: uploadQuery, body: picture },
    },
    async (request) => images.store(request.body, request.query.name ?? 'image'),
  );
};
