/**
 * Colour contrast for the venue-facing pages: the studio warns where the venue's colours make the
 * widget hard to read, and the booking page checks nothing but paints the same colours. The
 * widget's own defaults are named here as src/element/styles.ts sets them, so the studio checks what a
 * guest will see. Contrast follows WCAG 2.2: 4.5:1 for text (1.4.3), 3:1 for the focus ring and the
 * chosen day's outline against the background (1.4.11).
 */

/** The widget's default colours per theme (src/element/styles.ts): accent, text on it, and the surface. */
export const THEME_DEFAULTS = {
  light: { accent: '#1f5f8b', accentText: '#ffffff', surface: '#ffffff' },
  dark: { accent: '#8cc4ec', accentText: '#0b1a26', surface: '#161a1f' },
} as const;

/** The least contrast of text (WCAG AA, 1.4.3) and of a control's outline (1.4.11). */
export const AA_TEXT = 4.5;
export const AA_NON_TEXT = 3;

/** The relative luminance of a `#rgb` or `#rrggbb` colour. */
export function luminance(hex: string): number {
  const digits = hex.length === 4 ? [...hex.slice(1)].map((digit) => digit + digit).join('') : hex.slice(1, 7);
  const [r, g, b] = [0, 2, 4].map((at) => {
    const channel = parseInt(digits.slice(at, at + 2), 16) / 255;
    return channel <= 0.04045 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

/** The contrast ratio of two colours, from 1 to 21. */
export function contrastRatio(one: string, other: string): number {
  const [light, dark] = [luminance(one), luminance(other)].sort((a, b) => b - a);
  return (light! + 0.05) / (dark! + 0.05);
}

/**
 * The text colour the widget puts on a custom accent when the venue names none: white or black,
 * whichever contrasts more. src/element/styles.ts picks it in CSS (relative colours, OKLab lightness
 * against 0.6); this is the same choice for the studio's check.
 */
export function readableOn(accent: string): '#ffffff' | '#000000' {
  return contrastRatio(accent, '#ffffff') >= contrastRatio(accent, '#000000') ? '#ffffff' : '#000000';
}

/**
 * The check's words: the studio says them, and every WordPress plugin download carries them (its
 * `admin/contrast.php`, pages/wordpress/), so the plugin's settings page says the same. For each
 * pair: what is hard to see, and what to do in each theme. `sentence` takes the theme, what, the
 * ratio, the least it needs and the advice as sprintf's `%1$s`…`%5$s`, which PHP and WordPress's
 * JavaScript fill alike.
 */
export const CONTRAST_WORDS = {
  sentence: 'Hard to read in the %1$s theme: %2$s has a contrast of %3$s:1, and needs at least %4$s:1. %5$s',
  text: {
    what: 'the text on the booking button and on what the guest has chosen',
    light: 'Choose a darker main colour or another text colour.',
    dark: 'Choose a lighter main colour or another text colour.',
  },
  outline: {
    what: 'the main colour against the background (the outline that shows where the keyboard is, the chosen day)',
    light: 'Choose a darker main colour.',
    dark: 'Choose a lighter main colour.',
  },
} as const;

/** A colour pair under its least contrast, in one theme. */
export interface ContrastWarning {
  theme: 'light' | 'dark';
  /** Which pair: the text on the accent, or the accent's outline against the background. */
  pair: 'text' | 'outline';
  /** What is hard to see, in plain words. */
  what: string;
  ratio: number;
  needed: number;
}

/** A warning in the check's words (CONTRAST_WORDS.sentence, filled in). */
export function contrastSentence(warning: ContrastWarning): string {
  const { theme, pair, what, ratio, needed } = warning;
  const values = [theme, what, ratio.toFixed(2), String(needed), CONTRAST_WORDS[pair][theme]];
  return CONTRAST_WORDS.sentence.replace(/%(\d)\$s/g, (_, at: string) => values[Number(at) - 1]!);
}

/** The venue's colours (`#rrggbb`), each optional. */
export interface VenueColours {
  accent?: string;
  'accent-text'?: string;
  background?: string;
}

/** What is under AA with `colours` in `themes` (`auto` shows both). */
export function contrastWarnings(colours: VenueColours, theme: 'light' | 'dark' | 'auto'): ContrastWarning[] {
  const themes = theme === 'auto' ? (['light', 'dark'] as const) : [theme];
  const warnings: ContrastWarning[] = [];
  for (const name of themes) {
    const defaults = THEME_DEFAULTS[name];
    const accent = colours.accent ?? defaults.accent;
    const text = colours['accent-text'] ?? (colours.accent ? readableOn(accent) : defaults.accentText);
    const surface = colours.background ?? defaults.surface;
    const check = (pair: ContrastWarning['pair'], ratio: number, needed: number) => {
      if (ratio < needed) warnings.push({ theme: name, pair, what: CONTRAST_WORDS[pair].what, ratio, needed });
    };
    check('text', contrastRatio(text, accent), AA_TEXT);
    check('outline', contrastRatio(accent, surface), AA_NON_TEXT);
  }
  return warnings;
}
