import type { Ajv } from 'ajv';

/** Registers the content schemas' `interactive` and `ui` keywords with an ajv instance. */
declare function addContentKeywords(ajv: Ajv): Ajv;
declare namespace addContentKeywords {
  const UI_CONTROLS: readonly ['multiline', 'date', 'picture'];
  const UI_SECTIONS: readonly ['settings', 'advanced'];
}
export = addContentKeywords;
