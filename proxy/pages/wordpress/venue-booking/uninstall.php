<?php
/**
 * Deleting the plugin removes its one option (on every site of a network).
 *
 * @package venue-booking
 */

defined( 'WP_UNINSTALL_PLUGIN' ) || exit;

if ( is_multisite() ) {
	// `number` 0: every site; get_sites() stops at the first 100 unless told otherwise.
	$venue_booking_sites = get_sites(
		array(
			'fields' => 'ids',
			'number' => 0,
		)
	);
	foreach ( $venue_booking_sites as $venue_booking_site ) {
		delete_blog_option( $venue_booking_site, 'venue_booking' );
	}
} else {
	delete_option( 'venue_booking' );
}
