<?php
/**
 * Deleting the plugin removes its one option (on every site of a network).
 *
 * @package venue-booking
 */

defined( 'WP_UNINSTALL_PLUGIN' ) || exit;

if ( is_multisite() ) {
	foreach ( get_sites( array( 'fields' => 'ids' ) ) as $venue_booking_site ) {
		delete_blog_option( $venue_booking_site, 'venue_booking' );
	}
} else {
	delete_option( 'venue_booking' );
}
