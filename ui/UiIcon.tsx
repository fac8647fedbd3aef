// Interface glyphs (not content icons): arrows and the disclosure chevron, drawn as the content icons are.
import { OutlineGlyph } from './Icon.tsx';

const PATHS = {
  'arrow-left': 'M19 12H5M12 19l-7-7 7-7',
  'arrow-right': 'M5 12h14M12 5l7 7-7 7',
  'chevron-down': 'm6 9 6 6 6-6',
} as const;

export type UiIconName = keyof typeof PATHS;

type UiIconProps = { name: UiIconName; size?: number; className?: string };

/** Decorative: hidden from assistive technology; the surrounding text carries the meaning. */
export function UiIcon({ name, size = 20, className }: UiIconProps) {
  return <OutlineGlyph path={PATHS[name]} size={size} className={className} />;
}
