// The two keywords the content schemas add to JSON Schema, for every validator that reads them: the
// build's content check, the studio and ajv-cli (`ajv validate -c ./content-model/schema-keywords.cjs`).
// Neither changes what content is valid; each is checked so a typo in a schema fails loudly.
//
// - `interactive: true` at the top of a block's schema: the block responds to the visitor after the
//   page is built, so it is hydrated in the browser. It lives in the schema because the block
//   registry must know it without loading the block's component (each block is its own chunk).
// - `ui: { control, section }` on a property, for the studio's form; at least one of the two:
//   - `control` (a text only): which control the form draws, where the type alone does not say (a
//     text area for anything longer than a line, a date picker for a date, the picture library for
//     a text that holds a picture's address, so nobody types one);
//   - `section`: where the form puts it, so a page opens on its content. "settings" gathers a
//     page's address, search title and description and the like under "Page settings"; "advanced"
//     puts what few people need (an anchor name, a full page load) under "Advanced" in its group.
//     Both start closed. A property without a section is content and is shown first.
//   It may sit beside a `$ref`, to say where one use of a shared definition goes.
//
// CommonJS, because ajv-cli loads `-c` modules with require().
'use strict';

const UI_CONTROLS = ['multiline', 'date', 'picture'];
const UI_SECTIONS = ['settings', 'advanced'];

function addContentKeywords(ajv) {
  ajv.addKeyword({ keyword: 'interactive', metaSchema: { const: true } });
  ajv.addKeyword({
    keyword: 'ui',
    metaSchema: {
      type: 'object',
      additionalProperties: false,
      minProperties: 1,
      properties: { control: { enum: UI_CONTROLS }, section: { enum: UI_SECTIONS } },
    },
  });
  return ajv;
}

module.exports = addContentKeywords;
module.exports.UI_CONTROLS = UI_CONTROLS;
module.exports.UI_SECTIONS = UI_SECTIONS;
