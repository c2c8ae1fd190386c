<?php
/**
 * Settings → Venue booking: the booking proxy's address, the venues by name (or a group), the
 * look, language and booking type, the colours with the embed studio's contrast check, the
 * fallback, and "Check this site", which asks the proxy whether it lets this site show the widget.
 * Saved through the Settings API, so WordPress checks the nonce and `manage_options`. A "Settings"
 * link on the plugin's row leads here.
 *
 * @package venue-booking
 */

defined( 'ABSPATH' ) || exit;

/** The languages the widget speaks, by the value of its `locale`. */
const VENUE_BOOKING_LOCALES = array(
	'en-GB' => 'English',
	'fr'    => 'Français',
	'de'    => 'Deutsch',
	'es'    => 'Español',
	'nl'    => 'Nederlands',
);

add_action( 'admin_menu', 'venue_booking_menu' );
add_action( 'admin_init', 'venue_booking_register_setting' );
add_filter( 'plugin_action_links_' . plugin_basename( VENUE_BOOKING_FILE ), 'venue_booking_action_links' );

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

/**
 * The plugin's row in Plugins: a "Settings" link first, for those who may change them.
 *
 * @param string[] $links The row's links.
 * @return string[] The links.
 */
function venue_booking_action_links( $links ) {
	if ( current_user_can( 'manage_options' ) ) {
		array_unshift(
			$links,
			'<a href="' . esc_url( admin_url( 'options-general.php?page=venue-booking' ) ) . '">' . esc_html__( 'Settings', 'venue-booking' ) . '</a>'
		);
	}
	return $links;
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
	wp_add_inline_script(
		'venue-booking-settings',
		'window.venueBookingContrast = ' . wp_json_encode( venue_booking_contrast_check() ) . ';',
		'before'
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
 * Whether the booking proxy's address is one the proxy itself would take for its public address:
 * https, or http on this machine only (the proxy's loopback names: localhost, 127.0.0.1, [::1]).
 *
 * @param string $address An address.
 * @return bool Whether it will do.
 */
function venue_booking_secure_proxy( $address ) {
	$scheme = wp_parse_url( $address, PHP_URL_SCHEME );
	return 'https' === $scheme || ( 'http' === $scheme && in_array( wp_parse_url( $address, PHP_URL_HOST ), array( 'localhost', '127.0.0.1', '[::1]' ), true ) );
}

/**
 * The settings as submitted, each value kept only in its shape: the proxy's https address without a
 * trailing slash (an address that will not do keeps the one saved before), ids (venues ticked by
 * name, or typed), a theme and a language of the widget's, `#rrggbb` colours, a phone number, an
 * SRI hash, the http(s) address guests return to and the partner source (only this page, behind
 * `manage_options`, sets those two). The names of the download are not settings.
 *
 * @param mixed $input The submitted values.
 * @return array The values to save.
 */
function venue_booking_sanitize( $input ) {
	$input  = is_array( $input ) ? wp_unslash( $input ) : array();
	$text   = static function ( $name ) use ( $input ) {
		return isset( $input[ $name ] ) && is_scalar( $input[ $name ] ) ? trim( sanitize_text_field( (string) $input[ $name ] ) ) : '';
	};
	$ticked = isset( $input['venues'] ) && is_array( $input['venues'] ) ? array_filter( $input['venues'], 'is_string' ) : explode( ',', $text( 'venues' ) );
	$venues = implode( ',', array_filter( array_map( 'trim', $ticked ) ) );
	$proxy  = esc_url_raw( untrailingslashit( $text( 'proxy' ) ), array( 'http', 'https' ) );
	$secure = '' === $text( 'proxy' ) || venue_booking_secure_proxy( $proxy );
	$link   = esc_url_raw( $text( 'link' ), array( 'http', 'https' ) );
	$saved  = array(
		'proxy'          => $secure ? $proxy : venue_booking_settings()['proxy'],
		'venues'         => preg_match( VENUE_BOOKING_ATTRIBUTES['venue'], $venues ) ? $venues : '',
		'group'          => preg_match( VENUE_BOOKING_ATTRIBUTES['venue-group'], $text( 'group' ) ) ? $text( 'group' ) : '',
		'integrity'      => preg_match( '/^sha(256|384|512)-[A-Za-z0-9+\/]+={0,2}$/', $text( 'integrity' ) ) ? $text( 'integrity' ) : '',
		'theme'          => preg_match( VENUE_BOOKING_ATTRIBUTES['theme'], $text( 'theme' ) ) ? $text( 'theme' ) : 'light',
		'locale'         => isset( VENUE_BOOKING_LOCALES[ $text( 'locale' ) ] ) ? $text( 'locale' ) : '',
		'type'           => preg_match( VENUE_BOOKING_ATTRIBUTES['type'], $text( 'type' ) ) ? $text( 'type' ) : '',
		'link'           => $link,
		'phone'          => preg_match( '/^\+?[0-9 ()\-]{6,30}$/', $text( 'phone' ) ) ? $text( 'phone' ) : '',
		'return_url'     => esc_url_raw( $text( 'return_url' ), array( 'http', 'https' ) ),
		'partner_source' => preg_match( '/^[^\x00-\x1f]{1,100}$/u', $text( 'partner_source' ) ) ? $text( 'partner_source' ) : '',
	);
	foreach ( array_keys( VENUE_BOOKING_COLOURS ) as $name ) {
		$saved[ $name ] = (string) sanitize_hex_color( $text( $name ) );
	}
	if ( ! $secure ) {
		add_settings_error( 'venue_booking', 'proxy', __( 'The booking proxy’s address must start with https:// (http:// only on this machine: localhost, 127.0.0.1 or [::1]). The address saved before is kept.', 'venue-booking' ) );
	}
	if ( '' !== $text( 'partner_source' ) && '' === $saved['partner_source'] ) {
		add_settings_error( 'venue_booking', 'partner_source', __( 'The partner source: at most 100 characters.', 'venue-booking' ) );
	}
	if ( '' !== $text( 'phone' ) && '' === $saved['phone'] ) {
		add_settings_error( 'venue_booking', 'phone', __( 'Your phone number: digits, like +44 20 7946 0000.', 'venue-booking' ) );
	}
	return $saved;
}

/**
 * The contrast ratio of two colours (`#rgb` or `#rrggbb`), as WCAG 2 defines it: from 1 to 21.
 *
 * @param string $first  A colour.
 * @param string $second Another.
 * @return float The ratio.
 */
function venue_booking_contrast( $first, $second ) {
	$luminance = static function ( $colour ) {
		$hex = ltrim( $colour, '#' );
		if ( 3 === strlen( $hex ) ) {
			$hex = $hex[0] . $hex[0] . $hex[1] . $hex[1] . $hex[2] . $hex[2];
		}
		$linear = array_map(
			static function ( $pair ) {
				$value = hexdec( $pair ) / 255;
				return $value <= 0.04045 ? $value / 12.92 : pow( ( $value + 0.055 ) / 1.055, 2.4 );
			},
			str_split( $hex, 2 )
		);
		return 0.2126 * $linear[0] + 0.7152 * $linear[1] + 0.0722 * $linear[2];
	};
	$lighter = max( $luminance( $first ), $luminance( $second ) );
	$darker  = min( $luminance( $first ), $luminance( $second ) );
	return ( $lighter + 0.05 ) / ( $darker + 0.05 );
}

/**
 * The embed studio's contrast check: the widget's colours, each pair's least contrast and the
 * studio's words (contrast.php, which the proxy writes from proxy/pages/colours.ts).
 *
 * @return array{themes:array,checks:array,sentence:string} The check.
 */
function venue_booking_contrast_check() {
	return include __DIR__ . '/contrast.php';
}

/**
 * The embed studio's contrast check (proxy/pages/colours.ts `contrastWarnings`, in its words) on
 * the colours WordPress holds, in the settings' theme (both with "auto"): the text on the accent,
 * and the main colour against the background, each against the least contrast it needs. Where a
 * colour is not set, the widget's own is assumed; with an accent but no text colour, white or
 * black, whichever the widget would pick.
 *
 * @param array $settings The settings.
 * @return string[] The warnings.
 */
function venue_booking_contrast_warnings( $settings ) {
	$check    = venue_booking_contrast_check();
	$themes   = 'auto' === $settings['theme'] ? array( 'light', 'dark' ) : array( 'dark' === $settings['theme'] ? 'dark' : 'light' );
	$warnings = array();
	foreach ( $themes as $theme ) {
		$defaults = $check['themes'][ $theme ];
		$accent   = '' !== $settings['accent'] ? $settings['accent'] : $defaults['accent'];
		$text     = $settings['accent_text'];
		if ( '' === $text ) {
			$text = '' === $settings['accent'] ? $defaults['accent_text']
				: ( venue_booking_contrast( $accent, '#ffffff' ) >= venue_booking_contrast( $accent, '#000000' ) ? '#ffffff' : '#000000' );
		}
		$surface = '' !== $settings['background'] ? $settings['background'] : $defaults['background'];
		$ratios  = array(
			'text'    => venue_booking_contrast( $text, $accent ),
			'outline' => venue_booking_contrast( $accent, $surface ),
		);
		foreach ( $ratios as $pair => $ratio ) {
			$needed = $check['checks'][ $pair ]['needed'];
			if ( $ratio >= $needed ) {
				continue;
			}
			$warnings[] = sprintf(
				$check['sentence'],
				'dark' === $theme ? __( 'dark', 'venue-booking' ) : __( 'light', 'venue-booking' ),
				$check['checks'][ $pair ]['what'],
				number_format_i18n( $ratio, 2 ),
				number_format_i18n( $needed, is_int( $needed ) ? 0 : 1 ),
				$check['checks'][ $pair ][ $theme ]
			);
		}
	}
	return $warnings;
}

/**
 * A `<select>` row of the settings' table.
 *
 * @param string $name     The setting.
 * @param string $label    Its label.
 * @param array  $choices  Labels by value.
 * @param string $current  The value saved.
 * @param string $help     A line under it, or empty.
 */
function venue_booking_select( $name, $label, $choices, $current, $help = '' ) {
	printf(
		'<tr><th scope="row"><label for="venue-booking-%1$s">%2$s</label></th><td><select id="venue-booking-%1$s" name="venue_booking[%1$s]">',
		esc_attr( $name ),
		esc_html( $label )
	);
	foreach ( $choices as $value => $text ) {
		// phpcs:ignore WordPress.Security.EscapeOutput.OutputNotEscaped -- selected() returns a literal attribute.
		printf( '<option value="%1$s"%2$s>%3$s</option>', esc_attr( $value ), selected( (string) $value, $current, false ), esc_html( $text ) );
	}
	echo '</select>';
	if ( '' !== $help ) {
		echo '<p class="description">' . esc_html( $help ) . '</p>';
	}
	echo '</td></tr>';
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
	$origin  = wp_parse_url( home_url(), PHP_URL_SCHEME ) . '://' . wp_parse_url( home_url(), PHP_URL_HOST )
		. ( wp_parse_url( home_url(), PHP_URL_PORT ) ? ':' . wp_parse_url( home_url(), PHP_URL_PORT ) : '' );
	$ticked  = array_filter( explode( ',', $settings['venues'] ) );
	$venues  = array_unique( array_merge( array_keys( $settings['names'] ), $ticked ) );
	$by_name = '' === $settings['group'] && array() !== $settings['names'];
	?>
	<div class="wrap">
		<h1><?php esc_html_e( 'Venue booking', 'venue-booking' ); ?></h1>
		<p><?php esc_html_e( 'Add the booking widget to a page with the Venue booking block, or with the shortcode [venue_booking]. Anyone who can write posts can place it.', 'venue-booking' ); ?></p>
		<form action="options.php" method="post">
			<?php settings_fields( 'venue_booking' ); ?>
			<h2><?php esc_html_e( 'Your venues', 'venue-booking' ); ?></h2>
			<table class="form-table" role="presentation">
				<?php if ( '' !== $settings['group'] ) : ?>
					<tr><th scope="row"><?php esc_html_e( 'A group of venues', 'venue-booking' ); ?></th><td id="venue-booking-group-names">
						<?php
						$names = array_map(
							static function ( $id ) use ( $settings ) {
								return venue_booking_venue_name( $id, $settings );
							},
							array_keys( $settings['names'] )
						);
						echo esc_html( $names ? implode( ', ', $names ) : $settings['group'] );
						?>
						<p class="description"><?php esc_html_e( 'Guests choose among the group’s venues.', 'venue-booking' ); ?></p>
					</td></tr>
				<?php elseif ( $by_name ) : ?>
					<tr><th scope="row"><?php esc_html_e( 'Venues', 'venue-booking' ); ?></th><td><fieldset id="venue-booking-venues">
						<legend class="screen-reader-text"><?php esc_html_e( 'Venues', 'venue-booking' ); ?></legend>
						<?php foreach ( $venues as $id ) : ?>
							<label><input type="checkbox" name="venue_booking[venues][]" value="<?php echo esc_attr( $id ); ?>" <?php checked( in_array( $id, $ticked, true ) ); ?>> <?php echo esc_html( venue_booking_venue_name( $id, $settings ) ); ?></label><br>
						<?php endforeach; ?>
						<p class="description"><?php esc_html_e( 'The venues a block or shortcode books for when it names none. Tick several to let guests choose between them.', 'venue-booking' ); ?></p>
					</fieldset></td></tr>
				<?php else : ?>
					<?php $field( 'venues', __( 'Venue', 'venue-booking' ), __( 'The venue a block or shortcode books for when it names none (several: separated by commas).', 'venue-booking' ) ); ?>
				<?php endif; ?>
				<?php
				$types = array( '' => __( 'Let the guest choose', 'venue-booking' ) ) + $settings['types'];
				if ( '' !== $settings['type'] && ! isset( $types[ $settings['type'] ] ) ) {
					$types[ $settings['type'] ] = $settings['type'];
				}
				venue_booking_select( 'type', __( 'Booking type', 'venue-booking' ), $types, $settings['type'], __( 'For blocks and shortcodes that name no venue.', 'venue-booking' ) );
				?>
			</table>
			<h2><?php esc_html_e( 'Look and language', 'venue-booking' ); ?></h2>
			<table class="form-table" role="presentation">
				<?php
				venue_booking_select(
					'theme',
					__( 'Theme', 'venue-booking' ),
					array(
						'light' => __( 'Light', 'venue-booking' ),
						'dark'  => __( 'Dark', 'venue-booking' ),
						'auto'  => __( 'Follows the visitor’s setting', 'venue-booking' ),
					),
					$settings['theme']
				);
				venue_booking_select( 'locale', __( 'Language', 'venue-booking' ), array( '' => __( 'The site’s language', 'venue-booking' ) ) + VENUE_BOOKING_LOCALES, $settings['locale'] );
				$field( 'accent', __( 'Main colour (the booking button, what the guest has chosen)', 'venue-booking' ), __( 'Empty: the widget’s own.', 'venue-booking' ), 'data-colour' );
				$field( 'accent_text', __( 'Text on the main colour', 'venue-booking' ), __( 'Empty: white or black, whichever reads better on the main colour.', 'venue-booking' ), 'data-colour' );
				$field( 'background', __( 'Background', 'venue-booking' ), __( 'Empty: the widget’s own.', 'venue-booking' ), 'data-colour' );
				$field( 'text', __( 'Text', 'venue-booking' ), __( 'Empty: the widget’s own.', 'venue-booking' ), 'data-colour' );
				?>
			</table>
			<?php $warnings = venue_booking_contrast_warnings( $settings ); ?>
			<div id="venue-booking-contrast" role="status" class="<?php echo esc_attr( $warnings ? 'notice notice-warning inline' : '' ); ?>">
				<?php foreach ( $warnings as $warning ) : ?>
					<p><?php echo esc_html( $warning ); ?></p>
				<?php endforeach; ?>
			</div>
			<h2><?php esc_html_e( 'Where the widget cannot run', 'venue-booking' ); ?></h2>
			<p><?php esc_html_e( 'Shown to visitors whose browser cannot run it, and under an error. Without a page of your own it points to your booking page on the booking proxy.', 'venue-booking' ); ?></p>
			<table class="form-table" role="presentation">
				<?php
				$field( 'link', __( 'Your own booking page', 'venue-booking' ), '', 'type="url" placeholder="https://…"' );
				$field( 'phone', __( 'Your phone number', 'venue-booking' ), '', 'type="tel" placeholder="+44 20 7946 0000"' );
				?>
			</table>
			<h2><?php esc_html_e( 'After booking on the booking site', 'venue-booking' ); ?></h2>
			<p><?php esc_html_e( 'Some bookings are finished on the booking site (a deposit, pre-orders), which then sends the guest back with their name, email and booking reference. Only this page says where: a block or shortcode may name a page of this site only.', 'venue-booking' ); ?></p>
			<table class="form-table" role="presentation">
				<?php
				$field( 'return_url', __( 'Where guests come back to', 'venue-booking' ), __( 'Empty: the page they booked on.', 'venue-booking' ), 'type="url" placeholder="https://…"' );
				$field( 'partner_source', __( 'Partner source', 'venue-booking' ), __( 'A label kept with every booking made on this site (at most 100 characters). Empty: none.', 'venue-booking' ) );
				?>
			</table>
			<h2><?php esc_html_e( 'Your booking proxy', 'venue-booking' ); ?></h2>
			<table class="form-table" role="presentation">
				<?php $field( 'proxy', __( 'Address', 'venue-booking' ), __( 'Where the widget and the bookings come from, like https://booking.example.com.', 'venue-booking' ), 'type="url"' ); ?>
			</table>
			<p>
				<button type="button" class="button" id="venue-booking-check" data-origin="<?php echo esc_attr( $origin ); ?>"><?php esc_html_e( 'Check this site', 'venue-booking' ); ?></button>
				<span id="venue-booking-check-result" role="status"></span>
			</p>
			<details>
				<summary><?php esc_html_e( 'For your web person', 'venue-booking' ); ?></summary>
				<table class="form-table" role="presentation">
					<?php
					$field( 'group', __( 'Venue group', 'venue-booking' ), __( 'A group’s id: guests then choose among its venues. Empty: the venues above.', 'venue-booking' ) );
					$field( 'integrity', __( 'Script integrity hash', 'venue-booking' ), __( 'The browser runs the widget only if the proxy serves exactly this file. Filled in when you downloaded the plugin; “Check this site” says when the proxy serves a newer one.', 'venue-booking' ) );
					?>
				</table>
			</details>
			<?php submit_button(); ?>
		</form>
	</div>
	<?php
}
