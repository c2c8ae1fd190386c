<?php
/**
 * The Venue booking block, rendered on the server each time a page is shown: the post holds only
 * the block's comment with its settings.
 *
 * @package venue-booking
 *
 * @var array $attributes The block's settings (block.json).
 */

defined( 'ABSPATH' ) || exit;

echo venue_booking_element( // phpcs:ignore WordPress.Security.EscapeOutput.OutputNotEscaped -- every value is escaped in venue_booking_element().
	array(
		'venue'       => $attributes['venue'] ?? '',
		'venue-group' => $attributes['group'] ?? '',
		'type'        => $attributes['type'] ?? '',
		'theme'       => $attributes['theme'] ?? '',
		'mode'        => $attributes['mode'] ?? '',
		'locale'      => $attributes['locale'] ?? '',
	),
	' ' . get_block_wrapper_attributes()
);
