<?php
/**
 * Plugin Name:       Venue Booking
 * Description:       Lets guests book a table on your site: a [venue_booking] shortcode and a Venue booking block that show the booking widget, served by your booking proxy.
 * Version:           0.2.0
 * Requires at least: 6.1
 * Requires PHP:      7.4
 * Author:            venue-booking
 * License:           GPL-2.0-or-later
 * License URI:       https://www.gnu.org/licenses/gpl-2.0.html
 * Text Domain:       venue-booking
 *
 * Posts hold only the shortcode or the block's comment, never a script: WordPress removes scripts
 * and unknown tags that a user without `unfiltered_html` saves, but it keeps these, so every role
 * can place the widget and no later edit strips it. The element and the script tag are built here,
 * when a page is shown, and the script is enqueued only on the pages that show the widget.
 *
 * @package venue-booking
 */

defined( 'ABSPATH' ) || exit;

define( 'VENUE_BOOKING_VERSION', '0.2.0' );
/** This file: WordPress names the plugin by it (its row's links). */
define( 'VENUE_BOOKING_FILE', __FILE__ );

require_once __DIR__ . '/widget.php';
if ( is_admin() ) {
	require_once __DIR__ . '/admin/settings.php';
}

add_shortcode( 'venue_booking', 'venue_booking_shortcode' );
add_action( 'init', 'venue_booking_register' );
add_action( 'enqueue_block_editor_assets', 'venue_booking_enqueue' );
add_filter( 'script_loader_tag', 'venue_booking_script_tag', 10, 2 );
