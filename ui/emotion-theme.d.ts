// Components read the theme through emotion (`useTheme()`, `css={(theme) => …}`): this tells
// TypeScript that emotion's Theme is ours. Kept apart from theme.ts so build code can use the tokens
// (Open Graph images, theme-color) without emotion's types.
import type { createTheme } from './theme.ts';

declare module '@emotion/react' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- merges our theme into emotion's
  export interface Theme extends ReturnType<typeof createTheme> {}
}
