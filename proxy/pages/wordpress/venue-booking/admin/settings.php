<?php
/**
 * Settings → Venue booking: the booking proxy's address, the default venue or group, the colours
 * (with a warning where text on the accent falls below WCAG AA, 4.5:1, in the light or dark theme)
 * and "Check this site", which asks the proxy whether it lets this site show the widget. Saved
 * through the Settings API, so WordPress checks the nonce and `manage_options`.
 *
 * @package venue-booking
 */

defined( 'ABSPATH' ) || exit;

/** The widget's accent by theme, when the settings name none. */
const VENUE_BOOKING_THEME_ACCENT = array(
	'light' => '#1f5f8b',
	'dark'  => '#8cc4ec',
);

add_action( 'admin_menu', 'venue_booking_menu' );
add_action( 'admin_init', 'venue_booking_register_setting' );

/** Adds the page under Settings. */
function venue_booking_menu() {
	$page = add_options_page(
		__( 'Venue booking', 'venue-booking' ),
		__( 'Venue booking', 'venue-booking' ),
		'manage_options',
		'venue-booking',
		'venue_booking_settings_page'
	);
	add_action( 'admin_print_scripts-' . $page, 'venue_booking_settings_assets' );
}

/** The settings page's script and the colour pickers, on that page only. */
function venue_booking_settings_assets() {
	wp_enqueue_style( 'wp-color-picker' );
	wp_enqueue_script(
		'venue-booking-settings',
		plugins_url( 'settings.js', __FILE__ ),
		array( 'wp-color-picker', 'wp-i18n' ),
		VENUE_BOOKING_VERSION,
		true
	);
	wp_set_script_translations( 'venue-booking-settings', 'venue-booking' );
}

/** Registers the one option, with its sanitising. */
function venue_booking_register_setting() {
	register_setting(
		'venue_booking',
		'venue_booking',
		array(
			'type'              => 'array',
			'sanitize_callback' => 'venue_booking_sanitize',
			'default'           => array(),
		)
	);
}

/**
 * The settings as submitted, each value kept only in its shape: an http(s) address without a
 * trailing slash, ids, `#rrggbb` colours, an SRI hash.
 *
 * @param mixed $input The submitted values.
 * @return array The values to save.
 */
function venue_booking_sanitize( $input ) {
	$input  = is_array( $input ) ? wp_unslash( $input ) : array();
	$text   = static function ( $name ) use ( $input ) {
		return isset( $input[ $name ] ) ? trim( sanitize_text_field( (string) $input[ $name ] ) ) : '';
	};
	$proxy  = esc_url_raw( untrailingslashit( $text( 'proxy' ) ), array( 'http', 'https' ) );
	$venues = implode( ',', array_filter( array_map( 'trim', explode( ',', $text( 'venues' ) ) ) ) );
	$saved  = array(
		'proxy'       => $proxy,
		'venues'      => preg_match( VENUE_BOOKING_ATTRIBUTES['venue'], $venues ) ? $venues : '',
		'group'       => preg_match( VENUE_BOOKING_ATTRIBUTES['venue-group'], $text( 'group' ) ) ? $text( 'group' ) : '',
		'integrity'   => preg_match( '/^sha(256|384|512)-[A-Za-z0-9+\/]+={0,2}$/', $text( 'integrity' ) ) ? $text( 'integrity' ) : '',
		'accent'      => (string) sanitize_hex_color( $text( 'accent' ) ),
		'accent_text' => (string) sanitize_hex_color( $text( 'accent_text' ) ),
	);
	if ( '' !== $text( 'proxy' ) && '' === $proxy ) {
		add_settings_error( 'venue_booking', 'proxy', __( 'The booking proxy’s address must start with https://.', 'venue-booking' ) );
	}
	return $saved;
}

/**
 * What the colours read like in each theme: where text on the accent falls below 4.5:1, a sentence
 * that says so.
 *
 * @param array $settings The settings.
 * @return string[] The warnings.
 */
function venue_booking_contrast_warnings( $settings ) {
	$colours  = venue_booking_colours( $settings );
	$warnings = array();
	foreach ( array( 'light', 'dark' ) as $theme ) {
		$accent = $colours['--vb-accent'] ?? VENUE_BOOKING_THEME_ACCENT[ $theme ];
		$text   = $colours['--vb-accent-text'] ?? VENUE_BOOKING_ACCENT_TEXT[ $theme ];
		$ratio  = venue_booking_contrast( $text, $accent );
		if ( $ratio < 4.5 ) {
			$warnings[] = sprintf(
				/* translators: 1: light or dark, 2: text colour, 3: accent colour, 4: contrast ratio. */
				__( 'In the %1$s theme, the text on the accent (%2$s on %3$s) has a contrast of %4$s:1, below the 4.5:1 that guests need to read it (WCAG AA): choose a lighter text and a darker accent, or the other way round.', 'venue-booking' ),
				'light' === $theme ? __( 'light', 'venue-booking' ) : __( 'dark', 'venue-booking' ),
				$text,
				$accent,
				number_format_i18n( min( round( $ratio, 2 ), 4.49 ), 2 )
			);
		}
	}
	return $warnings;
}

/** The settings page. */
function venue_booking_settings_page() {
	if ( ! current_user_can( 'manage_options' ) ) {
		return;
	}
	$settings = venue_booking_settings();
	$field    = static function ( $name, $label, $help = '', $attributes = '' ) use ( $settings ) {
		printf(
			'<tr><th scope="row"><label for="venue-booking-%1$s">%2$s</label></th><td><input id="venue-booking-%1$s" name="venue_booking[%1$s]" value="%3$s" class="regular-text" %4$s>%5$s</td></tr>',
			esc_attr( $name ),
			esc_html( $label ),
			esc_attr( $settings[ $name ] ),
			$attributes, // phpcs:ignore WordPress.Security.EscapeOutput.OutputNotEscaped -- literal attributes from this file.
			$help ? '<p class="description">' . esc_html( $help ) . '</p>' : ''
		);
	};
	$origin = wp_parse_url( home_url(), PHP_URL_SCHEME ) . '://' . wp_parse_url( home_url(), PHP_URL_HOST )
		. ( wp_parse_url( home_url(), PHP_URL_PORT ) ? ':' . wp_parse_url( home_url(), PHP_URL_PORT ) : '' );
	?>
	<div class="wrap">
		<h1><?php esc_html_e( 'Venue booking', 'venue-booking' ); ?></h1>
		<p><?php esc_html_e( 'Add the booking widget to a page with the Venue booking block, or with the shortcode [venue_booking]. Anyone who can write posts can place it.', 'venue-booking' ); ?></p>
		<?php foreach ( venue_booking_contrast_warnings( $settings ) as $warning ) : ?>
			<div class="notice notice-warning inline"><p><?php echo esc_html( $warning ); ?></p></div>
		<?php endforeach; ?>
		<form action="options.php" method="post">
			<?php settings_fields( 'venue_booking' ); ?>
			<h2><?php esc_html_e( 'Your booking proxy', 'venue-booking' ); ?></h2>
			<table class="form-table" role="presentation">
				<?php
				$field( 'proxy', __( 'Address', 'venue-booking' ), __( 'Where the widget and the bookings come from, like https://booking.example.com.', 'venue-booking' ), 'type="url"' );
				$field( 'venues', __( 'Venue', 'venue-booking' ), __( 'The venue a block or shortcode books for when it names none (several: separated by commas).', 'venue-booking' ) );
				$field( 'group', __( 'Or a group of venues', 'venue-booking' ), __( 'Guests then choose among the group’s venues.', 'venue-booking' ) );
				?>
			</table>
			<p>
				<button type="button" class="button" id="venue-booking-check" data-origin="<?php echo esc_attr( $origin ); ?>"><?php esc_html_e( 'Check this site', 'venue-booking' ); ?></button>
				<span id="venue-booking-check-result" role="status"></span>
			</p>
			<h2><?php esc_html_e( 'Colours', 'venue-booking' ); ?></h2>
			<table class="form-table" role="presentation">
				<?php
				$field( 'accent', __( 'Accent (chosen values, the main button)', 'venue-booking' ), __( 'Empty: the widget’s own blue.', 'venue-booking' ), 'data-colour' );
				$field( 'accent_text', __( 'Text on the accent', 'venue-booking' ), __( 'Empty: white or dark blue, whichever reads better on the accent.', 'venue-booking' ), 'data-colour' );
				?>
			</table>
			<p id="venue-booking-contrast" role="status"></p>
			<details>
				<summary><?php esc_html_e( 'For your web person', 'venue-booking' ); ?></summary>
				<table class="form-table" role="presentation">
					<?php $field( 'integrity', __( 'Script integrity hash', 'venue-booking' ), __( 'The browser runs the widget only if the proxy serves exactly this file. Filled in when you downloaded the plugin; “Check this site” says when the proxy serves a newer one.', 'venue-booking' ) ); ?>
				</table>
			</details>
			<?php submit_button(); ?>
		</form>
	</div>
	<?php
}
