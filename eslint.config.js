// ESLint: typescript-eslint's recommended rules, React hooks, jsx-a11y and import cycles, over all
// the project's code. TypeScript 7 (the compiler `tsc` runs) has no JavaScript API, so
// typescript-eslint reads the code with the TypeScript 6 API the `typescript` package name points at
// (package.json), as TypeScript 7's release notes advise.
import importX, { createNodeResolver } from 'eslint-plugin-import-x';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const SCRIPTS_ARE_TOOLING = {
  group: ['**/scripts/**'],
  message: 'scripts/ is build tooling; move what is shared into content-model/ (or the folder that owns it).',
};
const RENDERER_IS_ABOVE = {
  group: ['**/renderer/**'],
  message: 'renderer/ draws the blocks, forms and ui components; what they share with it belongs in ui/page/ (the page contract).',
};
/** The components pages are made of, below the renderer. */
const PAGE_COMPONENTS = ['blocks/**', 'forms/**', 'ui/**'];

export default tseslint.config(
  { ignores: ['dist/**', '.studio/**', 'generated/**', 'node_modules/**', '.tmp/**', 'test-results/**', 'playwright-report/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    // CommonJS only where a tool loads modules with require() (ajv-cli's keyword modules).
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { module: 'writable', require: 'readonly' } },
  },
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks, 'jsx-a11y': jsxA11y, 'import-x': importX },
    // Imports name their files with the extension, so Node's own resolution finds every module.
    settings: {
      'import-x/extensions': ['.ts', '.tsx', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [createNodeResolver()],
    },
    rules: {
      ...jsxA11y.flatConfigs.recommended.rules,
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      'import-x/no-cycle': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
      eqeqeq: 'error',
      // Lists styled without bullets lose their list semantics in Safari/VoiceOver unless they say
      // role="list" again; the role is deliberate.
      'jsx-a11y/no-redundant-roles': 'off',
    },
  },
  {
    // scripts/ is build tooling: what the site, the server and the studio run never depends on it.
    // What they share about the content lives in content-model/. Tests may check code against it.
    files: [
      'back-office/**',
      'brand-pictures/**',
      'content-model/**',
      'renderer/**',
      'blocks/**',
      'forms/**',
      'ui/**',
      'lead/**',
      'server/**',
      'studio/**',
    ],
    ignores: ['**/*.test.ts', '**/*.test.tsx'],
    rules: { 'no-restricted-imports': ['error', { patterns: [SCRIPTS_ARE_TOOLING] }] },
  },
  {
    // The page's components never import the renderer that draws them; what both need (the site
    // context, the page markers, the toaster, a route's data) is the page contract in ui/page/.
    // A later object's no-restricted-imports replaces an earlier one's for the same file, so this one
    // repeats the scripts/ pattern for the files the object above covers.
    files: PAGE_COMPONENTS,
    ignores: ['**/*.test.ts', '**/*.test.tsx'],
    rules: { 'no-restricted-imports': ['error', { patterns: [SCRIPTS_ARE_TOOLING, RENDERER_IS_ABOVE] }] },
  },
  {
    // An island's React root does not listen for touch, pointer, hover, wheel or CSS transition and
    // animation events, nor for scrolling in the capture phase (renderer/islands/island-events.ts: they
    // made a phone's taps slower), so a handler for one in the components islands are made of would
    // never be called on the site.
    files: [...PAGE_COMPONENTS, 'renderer/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            'JSXAttribute[name.name=/^on(Touch|Pointer|GotPointerCapture|LostPointerCapture|Mouse(Move|Over|Out|Enter|Leave)|Wheel|Scroll(End)?Capture|Transition|Animation)/]',
          message:
            'Islands do not listen for touch, pointer, hover, wheel, transition or animation events, nor for scrolling in the capture phase (renderer/islands/island-events.ts): use onClick, onFocus, onKeyDown or onChange, or take the event type out of EVENTS_NO_ISLAND_HANDLES there and out of this rule.',
        },
      ],
    },
  },
  {
    // Their tests render them as the renderer would, from the page contract too.
    files: PAGE_COMPONENTS.map((folder) => `${folder}/*.test.{ts,tsx}`),
    rules: { 'no-restricted-imports': ['error', { patterns: [RENDERER_IS_ABOVE] }] },
  },
  {
    // The back office's floor (back-office/) sits below the server, the studio and the console: roles,
    // accounts, sessions, sign-in, the front door. It stands on the lead domain and the content model
    // alone, so any of the three may use it without pulling in another's code. Paths are compared as
    // resolved, whatever the import's spelling.
    files: ['back-office/**/*.{ts,tsx}'],
    // The contract tests of the back office's stores run on the composed database, on both engines,
    // with the server's store harness, as the server's own store tests do.
    ignores: ['**/*.test.ts'],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            {
              target: './back-office',
              from: './server',
              message:
                'back-office/ is the floor below server/, studio/ and console/: it may import only lead/, content-model/ and itself.',
            },
            {
              target: './back-office',
              from: ['./studio', './console'],
              message:
                'back-office/ is the floor below server/, studio/ and console/: it may import only lead/, content-model/ and itself.',
            },
          ],
        },
      ],
    },
  },
  {
    // The studio and the console share the back office (back-office/), never the site server's own
    // code: of server/ they open only the composed store, the database a back-office process opens.
    // Tests, and the helpers that start apps for them, may start the site's server beside them to
    // prove the apps work together.
    files: ['studio/**/*.{ts,tsx}', 'console/**/*.{ts,tsx}'],
    ignores: ['**/*.test.ts', '**/*.test.tsx', '**/testing/**'],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            {
              target: ['./studio', './console'],
              from: './server',
              except: ['./store/database.ts'],
              message:
                'studio/ and console/ may import from server/ only the composed store (server/store/database.ts); move what they share into back-office/ (or lead/, content-model/).',
            },
          ],
        },
      ],
    },
  },
);
