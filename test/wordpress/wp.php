<?php
/**
 * The test's hands inside WordPress, run with PHP's CLI against the test site (wordpress.test.ts
 * passes the site's folder, address and database socket in the environment):
 *
 *   setup                       creates the database, installs WordPress, adds an Author and an Editor
 *   post <login> <title> <file>  publishes a post as that user (kses applies as in the editor)
 *   retitle <login> <id> <title> changes only a post's title as that user, as "Update" does
 *   show <id>                   prints a post's stored content
 *   uninstall                   deactivates and deletes the plugin as the Administrator does
 *
 * Each prints one line of JSON.
 */

$site = getenv( 'WP_TEST_SITE' );
$_SERVER['HTTP_HOST']   = parse_url( getenv( 'WP_TEST_URL' ), PHP_URL_HOST ) . ':' . parse_url( getenv( 'WP_TEST_URL' ), PHP_URL_PORT );
$_SERVER['REQUEST_URI'] = '/';
define( 'ABSPATH', $site . '/' );

$command = $argv[1] ?? '';
if ( 'setup' === $command ) {
	$database = new mysqli( 'localhost', 'root', '', '', 0, getenv( 'WP_TEST_SOCKET' ) );
	$database->query( 'CREATE DATABASE IF NOT EXISTS wordpress CHARACTER SET utf8mb4' );
	define( 'WP_INSTALLING', true );
}
require ABSPATH . 'wp-load.php';

/** The user with this login. */
function test_user( $login ) {
	$user = get_user_by( 'login', $login );
	if ( ! $user ) {
		fwrite( STDERR, "no user $login\n" );
		exit( 1 );
	}
	return $user;
}

/** Prints the answer and stops; a WP_Error fails the command. */
function test_answer( $value ) {
	if ( is_wp_error( $value ) ) {
		fwrite( STDERR, $value->get_error_message() . "\n" );
		exit( 1 );
	}
	echo wp_json_encode( $value ), "\n";
	exit( 0 );
}

switch ( $command ) {
	case 'setup':
		require_once ABSPATH . 'wp-admin/includes/upgrade.php';
		$installed = wp_install( 'Quayside test site', 'admin', 'admin@example.com', false, '', 'admin-password' );
		$ids       = array( 'admin' => $installed['user_id'] );
		foreach ( array( 'author', 'editor' ) as $role ) {
			$ids[ $role ] = wp_insert_user(
				array(
					'user_login' => $role,
					'user_pass'  => "$role-password",
					'user_email' => "$role@example.com",
					'role'       => $role,
				)
			);
		}
		$ids['author_unfiltered'] = user_can( $ids['author'], 'unfiltered_html' );
		$ids['editor_unfiltered'] = user_can( $ids['editor'], 'unfiltered_html' );
		test_answer( $ids );
	case 'post':
		wp_set_current_user( test_user( $argv[2] )->ID );
		$id = wp_insert_post(
			wp_slash(
				array(
					'post_title'   => $argv[3],
					'post_content' => file_get_contents( $argv[4] ),
					'post_status'  => 'publish',
				)
			),
			true
		);
		test_answer( is_wp_error( $id ) ? $id : array( 'id' => $id, 'content' => get_post( $id )->post_content ) );
	case 'retitle':
		wp_set_current_user( test_user( $argv[2] )->ID );
		$id = wp_update_post( array( 'ID' => (int) $argv[3], 'post_title' => $argv[4] ), true );
		test_answer( is_wp_error( $id ) ? $id : array( 'id' => $id, 'content' => get_post( $id )->post_content ) );
	case 'uninstall':
		global $wpdb;
		require_once ABSPATH . 'wp-admin/includes/plugin.php';
		require_once ABSPATH . 'wp-admin/includes/file.php';
		wp_set_current_user( test_user( 'admin' )->ID );
		$stored = static function () use ( $wpdb ) {
			return (int) $wpdb->get_var( "SELECT COUNT(*) FROM $wpdb->options WHERE option_name = 'venue_booking'" );
		};
		$before = $stored();
		deactivate_plugins( 'venue-booking/venue-booking.php' );
		$deleted = delete_plugins( array( 'venue-booking/venue-booking.php' ) );
		test_answer(
			array(
				'before'  => $before,
				'deleted' => true === $deleted,
				'after'   => $stored(),
				'folder'  => is_dir( WP_PLUGIN_DIR . '/venue-booking' ),
			)
		);
	case 'show':
		test_answer( array( 'content' => get_post( (int) $argv[2] )->post_content ) );
}
fwrite( STDERR, "unknown command $command\n" );
exit( 1 );
