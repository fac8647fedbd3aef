// Only the bodies a route reads are parsed: JSON, bounded in bytes and in shape (json-body.ts: 1 MB,
// nesting, values, lists, texts) while it is parsed, before any route or route schema sees it; and
// pictures, as bytes, up to the upload limit. Fastify's text/plain parser goes, so a plain HTML form
// from another site never reaches a route (access.ts refuses its type first anyway).
import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { MEDIA_TYPES } from '../access.ts';
import { MAX_UPLOAD_BYTES } from '../images.ts';
import { jsonShapeProblem } from '../json-body.ts';

/** A JSON body whose shape no content has (too deep, too many values): refused before any route reads it. */
export class BodyShapeError extends Error {
  override name = 'BodyShapeError';
}

const bodyParsers: FastifyPluginAsync = async (app) => {
  app.removeContentTypeParser(['text/plain', 'application/json']);
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    parseJson(request, body as string, (error: Error | null, value?: unknown) => {
      if (error) return done(error);
      const problem = jsonShapeProblem(value);
      if (problem) return done(new BodyShapeError(problem));
      done(null, value);
    });
  });
  app.addContentTypeParser([...MEDIA_TYPES.image], { parseAs: 'buffer', bodyLimit: MAX_UPLOAD_BYTES }, (_request, body, done) =>
    done(null, body),
  );
};

// Not encapsulated: the parsers serve every route.
export const bodyParsersPlugin = fp(bodyParsers, { name: 'studio-body-parsers', fastify: '5.x' });
