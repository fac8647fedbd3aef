// The two keywords the content schemas add to JSON Schema, for every validator that reads them: the
// build's content check, the studio and ajv-cli (`ajv validate -c ./content-model/schema-keywords.cjs`).
// Neither changes what content is valid; each is checked so a typo in a schema fails loudly.
//
// - `interactive: true` at the top of a block's schema: the block responds to the visitor after the
//   page is built, so it is hydrated in the browser. It lives in the schema because the block
//   registry must know it without loading the block's component (each block is its own chunk).
// - `ui: { control }` on a text property: which control the studio's form draws for it, where the
//   type alone does not say (a text area for a few sentences, a date picker for a date).
//
// CommonJS, because ajv-cli loads `-c` modules with require().
'use strict';

const UI_CONTROLS = ['multiline', 'date'];

function addContentKeywords(ajv) {
  ajv.addKeyword({ keyword: 'interactive', metaSchema: { const: true } });
  ajv.addKeyword({
    keyword: 'ui',
    metaSchema: {
      type: 'object',
      additionalProperties: false,
      required: ['control'],
      properties: { control: { enum: UI_CONTROLS } },
    },
  });
  return ajv;
}

module.exports = addContentKeywords;
module.exports.UI_CONTROLS = UI_CONTROLS;
