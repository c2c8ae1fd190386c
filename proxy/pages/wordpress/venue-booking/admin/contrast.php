<?php
/**
 * The embed studio's contrast check, as the settings page runs it (settings.php, and settings.js
 * as the colours change): the widget's own colours by theme (src/element/styles.ts), assumed where
 * the settings name none; each pair the check measures, with the least contrast it needs (WCAG
 * AA: 4.5:1 for the text on the main colour, 3:1 for the main colour against the background), what
 * is hard to see and what to do in each theme; and the sentence that says it, with sprintf's
 * `%1$s`…`%5$s` (the theme, what, the ratio, the least it needs, the advice). The proxy writes this
 * file into each download from proxy/pages/colours.ts, so the plugin checks and says what the
 * studio does.
 *
 * @package venue-booking
 */

defined( 'ABSPATH' ) || exit;

return array(
	'themes'   => array(
		'light' => array(
			'accent'      => '#1f5f8b',
			'accent_text' => '#ffffff',
			'background'  => '#ffffff',
		),
		'dark'  => array(
			'accent'      => '#8cc4ec',
			'accent_text' => '#0b1a26',
			'background'  => '#161a1f',
		),
	),
	'checks'   => array(
		'text'    => array(
			'needed' => 4.5,
			'what'   => 'the text on the booking button and on what the guest has chosen',
			'light'  => 'Choose a darker main colour or another text colour.',
			'dark'   => 'Choose a lighter main colour or another text colour.',
		),
		'outline' => array(
			'needed' => 3,
			'what'   => 'the main colour against the background (the outline that shows where the keyboard is, the chosen day)',
			'light'  => 'Choose a darker main colour.',
			'dark'   => 'Choose a lighter main colour.',
		),
	),
	'sentence' => 'Hard to read in the %1$s theme: %2$s has a contrast of %3$s:1, and needs at least %4$s:1. %5$s',
);
