<?php
/**
 * The embed studio's contrast check, as the settings page runs it (settings.php, and settings.js
 * as the colours change): the widget's own colours by theme (src/element/styles.ts), assumed where
 * the settings name none; each pair the check measures, with the least contrast it needs (WCAG
 * AA: 4.5:1 for the text on the main colour, 3:1 for the main colour against the background), what
 * is hard to see and what to do in each theme; and the sentence that says it, with sprintf's
 * `%1$s`…`%5$s` (the theme, what, the ratio, the least it needs, the advice). The proxy writes this
 * file into each download from proxy/pages/colours.ts, so the plugin checks and says what the
 * studio does, in words WordPress's translators can translate.
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
			'what'   => __( 'the text on the booking button and on what the guest has chosen', 'venue-booking' ),
			'light'  => __( 'Choose a darker main colour or another text colour.', 'venue-booking' ),
			'dark'   => __( 'Choose a lighter main colour or another text colour.', 'venue-booking' ),
		),
		'outline' => array(
			'needed' => 3,
			'what'   => __( 'the main colour against the background (the outline that shows where the keyboard is, the chosen day)', 'venue-booking' ),
			'light'  => __( 'Choose a darker main colour.', 'venue-booking' ),
			'dark'   => __( 'Choose a lighter main colour.', 'venue-booking' ),
		),
	),
	'sentence' => /* translators: 1: light or dark, 2: what is hard to see, 3: its contrast ratio, 4: the least it needs, 5: what to do. */ __( 'Hard to read in the %1$s theme: %2$s has a contrast of %3$s:1, and needs at least %4$s:1. %5$s', 'venue-booking' ),
);
