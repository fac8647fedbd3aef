// The console's stylesheet is a plain CSS file (its Content-Security-Policy allows no injected
// styles), so it cannot read the design tokens from ui/theme.ts: this keeps its colours equal to
// them, and keeps it free of anything the policy would block.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createTheme } from '../../ui/theme.ts';

const css = readFileSync(path.join(import.meta.dirname, 'console.css'), 'utf8');
const kebab = (name: string) => name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);

describe('the console stylesheet', () => {
  it('uses the design tokens colours', () => {
    const { colors } = createTheme();
    const declared = Object.fromEntries(
      [...css.matchAll(/--color-([a-z-]+):\s*(#[0-9a-f]{6});/gi)].map(([, name, value]): [string, string] => [name!, value!]),
    );
    expect(Object.keys(declared).length).toBeGreaterThan(5);
    for (const [name, value] of Object.entries(declared)) {
      const token = Object.entries(colors).find(([key]) => kebab(key) === name)?.[1];
      expect(token, `--color-${name} is not a colour of ui/theme.ts`).toBeDefined();
      expect(value!.toLowerCase(), `--color-${name}`).toBe(token!.toLowerCase());
    }
  });

  it('loads nothing from elsewhere', () => {
    expect(css).not.toMatch(/@import|url\(/);
  });
});
