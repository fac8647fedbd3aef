/** A token colour at `percent` opacity, for washes and hairlines that work on any background (light or dark). */
export const alpha = (color: string, percent: number) => `color-mix(in srgb, ${color} ${percent}%, transparent)`;
