<?php
/**
 * The widget on the page: the settings, the `<venue-booking>` element built from a shortcode's or a
 * block's attributes (each value checked, then escaped), and the script with its integrity hash.
 *
 * @package venue-booking
 */

defined( 'ABSPATH' ) || exit;

/**
 * The element's attributes a shortcode or block may set, each with the shape its value must have
 * (README "Attributes"). `api` is not among them: the widget talks only to the proxy of the
 * settings, so no post can send guests' details elsewhere.
 */
const VENUE_BOOKING_ATTRIBUTES = array(
	'venue'          => '/^[A-Za-z0-9_-]{1,64}(,[A-Za-z0-9_-]{1,64}){0,19}$/',
	'venue-group'    => '/^[A-Za-z0-9_-]{1,64}$/',
	'steps'          => '/^[a-z_]{1,20}(,[a-z_]{1,20}){0,9}$/',
	'locale'         => '/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8}){0,2}$/',
	'theme'          => '/^(light|dark|auto)$/',
	'mode'           => '/^(inline|popup)$/',
	'return-url'     => '/^https?:\/\/\S{1,500}$/',
	'return-method'  => '/^(post|get)$/',
	'hide-offers'    => '/^(true|false|1|0|yes|no)$/',
	'partner-source' => '/^[^\x00-\x1f]{1,100}$/u',
	'ask-dob'        => '/^(required|optional)$/',
	'analytics'      => '/^(true|false|1|0|yes|no)$/',
	'type'           => '/^[A-Za-z0-9_-]{1,64}$/',
	'date'           => '/^\d{4}-\d{2}-\d{2}$/',
	'time'           => '/^([01]\d|2[0-3]):[0-5]\d$/',
	'duration'       => '/^\d{1,4}$/',
	'num-people'     => '/^\d{1,3}$/',
);

/** Attributes that are on when present: written without a value, and left out when off. */
const VENUE_BOOKING_SWITCHES = array( 'hide-offers', 'analytics' );

/** The widget's text colour on the accent by theme, when the settings name none. */
const VENUE_BOOKING_ACCENT_TEXT = array(
	'light' => '#ffffff',
	'dark'  => '#0b1a26',
);

/**
 * The settings: the saved option over the defaults this download came with.
 *
 * @return array{proxy:string,venues:string,group:string,integrity:string,accent:string,accent_text:string}
 */
function venue_booking_settings() {
	$defaults = include __DIR__ . '/defaults.php';
	$defaults = array_merge(
		array(
			'proxy'       => '',
			'venues'      => '',
			'group'       => '',
			'integrity'   => '',
			'accent'      => '',
			'accent_text' => '',
		),
		is_array( $defaults ) ? $defaults : array()
	);
	$saved = get_option( 'venue_booking', array() );
	return array_merge( $defaults, is_array( $saved ) ? array_intersect_key( $saved, $defaults ) : array() );
}

/**
 * The element's attributes from a shortcode's or block's: known names only (`num_people` and
 * `venue_group` taken for their hyphenated names, `group` for `venue-group`), values of the right
 * shape only, the settings' venue or group when none is given, and the site's language when the
 * widget speaks it.
 *
 * @param array $given Attribute values by name.
 * @return array<string,string> Attribute values by the element's names.
 */
function venue_booking_attributes( $given ) {
	$attributes = array();
	foreach ( (array) $given as $name => $value ) {
		$name = str_replace( '_', '-', strtolower( (string) $name ) );
		$name = 'group' === $name ? 'venue-group' : $name;
		$value = trim( is_bool( $value ) ? ( $value ? 'true' : '' ) : (string) $value );
		if ( '' === $value || ! isset( VENUE_BOOKING_ATTRIBUTES[ $name ] ) ) {
			continue;
		}
		if ( preg_match( VENUE_BOOKING_ATTRIBUTES[ $name ], $value ) ) {
			$attributes[ $name ] = $value;
		}
	}
	if ( empty( $attributes['venue'] ) && empty( $attributes['venue-group'] ) ) {
		$settings = venue_booking_settings();
		if ( '' !== $settings['group'] ) {
			$attributes['venue-group'] = $settings['group'];
		} elseif ( '' !== $settings['venues'] ) {
			$attributes['venue'] = $settings['venues'];
		}
	}
	$language = substr( get_locale(), 0, 2 );
	if ( empty( $attributes['locale'] ) && in_array( $language, array( 'fr', 'de', 'es', 'nl' ), true ) ) {
		$attributes['locale'] = $language;
	}
	foreach ( VENUE_BOOKING_SWITCHES as $name ) {
		if ( isset( $attributes[ $name ] ) && ! in_array( $attributes[ $name ], array( 'true', '1', 'yes' ), true ) ) {
			unset( $attributes[ $name ] );
		}
	}
	return $attributes;
}

/**
 * The `<venue-booking>` element for the given attributes, with a link for visitors whose browser
 * cannot run it; enqueues the script (and the colours) for this page. Every value is escaped here.
 *
 * @param array  $given   Attribute values by name (a shortcode's or a block's).
 * @param string $wrapper The wrapper's attributes (a block's), already escaped; default its class.
 * @return string The markup.
 */
function venue_booking_element( $given, $wrapper = ' class="venue-booking"' ) {
	$settings = venue_booking_settings();
	if ( '' === $settings['proxy'] ) {
		return current_user_can( 'manage_options' )
			? '<p>' . esc_html__( 'Venue booking: set the booking proxy’s address under Settings → Venue booking.', 'venue-booking' ) . '</p>'
			: '';
	}
	venue_booking_enqueue();
	$attributes = venue_booking_attributes( $given );
	$markup     = ' api="' . esc_url( $settings['proxy'] . '/api' ) . '"';
	foreach ( $attributes as $name => $value ) {
		$markup .= in_array( $name, VENUE_BOOKING_SWITCHES, true )
			? ' ' . esc_attr( $name )
			: ' ' . esc_attr( $name ) . '="' . ( 'return-url' === $name ? esc_url( $value ) : esc_attr( $value ) ) . '"';
	}
	$venue = $attributes['venue-group'] ?? explode( ',', $attributes['venue'] ?? '' )[0];
	$page  = $settings['proxy'] . '/book/' . rawurlencode( $venue );
	return '<div' . $wrapper . '><venue-booking' . $markup . '><p><a href="' . esc_url( $page ) . '">'
		. esc_html__( 'Book a table online', 'venue-booking' ) . '</a></p></venue-booking></div>';
}

/**
 * `[venue_booking venue="…" …]`: the widget where the shortcode stands.
 *
 * @param array|string $atts The shortcode's attributes.
 * @return string The markup.
 */
function venue_booking_shortcode( $atts ) {
	return venue_booking_element( is_array( $atts ) ? $atts : array() );
}

/** Registers the widget's script and colours, the block's editor script, and the block. */
function venue_booking_register() {
	$settings = venue_booking_settings();
	if ( '' !== $settings['proxy'] ) {
		// A module script from the proxy, in the footer; `null`: no `?ver=`, the integrity hash pins it.
		wp_register_script( 'venue-booking', $settings['proxy'] . '/venue-booking.js', array(), null, true );
		wp_script_add_data( 'venue-booking', 'integrity', $settings['integrity'] );
	}
	wp_register_style( 'venue-booking', false, array(), VENUE_BOOKING_VERSION );
	$colours = venue_booking_colours( $settings );
	if ( $colours ) {
		$rules = '';
		foreach ( $colours as $property => $colour ) {
			$rules .= $property . ':' . $colour . ';';
		}
		wp_add_inline_style( 'venue-booking', 'venue-booking{' . $rules . '}' );
	}
	wp_register_script(
		'venue-booking-editor',
		plugins_url( 'block/editor.js', __FILE__ ),
		array( 'wp-blocks', 'wp-block-editor', 'wp-components', 'wp-element', 'wp-i18n', 'wp-server-side-render' ),
		VENUE_BOOKING_VERSION,
		true
	);
	wp_add_inline_script(
		'venue-booking-editor',
		'window.venueBookingEditor = ' . wp_json_encode(
			array(
				'proxy'  => $settings['proxy'],
				'venues' => $settings['venues'],
				'group'  => $settings['group'],
			)
		) . ';',
		'before'
	);
	wp_set_script_translations( 'venue-booking-editor', 'venue-booking' );
	register_block_type( __DIR__ . '/block' );
}

/** Enqueues the widget's script and colours: called only where a page shows the widget, and in the block editor. */
function venue_booking_enqueue() {
	if ( wp_script_is( 'venue-booking', 'registered' ) ) {
		wp_enqueue_script( 'venue-booking' );
	}
	wp_enqueue_style( 'venue-booking' );
}

/**
 * The widget's script tag as a module with its integrity hash (WordPress 6.1 builds the tag
 * itself: this filter is the one place to change it). Any `type` WordPress put there is replaced.
 *
 * @param string $tag    The tag WordPress built.
 * @param string $handle The script's handle.
 * @return string The tag.
 */
function venue_booking_script_tag( $tag, $handle ) {
	if ( 'venue-booking' !== $handle ) {
		return $tag;
	}
	$integrity = (string) wp_scripts()->get_data( 'venue-booking', 'integrity' );
	$extra     = ' type="module" crossorigin="anonymous"';
	if ( '' !== $integrity ) {
		$extra .= ' integrity="' . esc_attr( $integrity ) . '"';
	}
	$tag = preg_replace( '/\stype=([\'"])[^\'"]*\1/', '', $tag );
	return preg_replace( '/<script\b/', '<script' . $extra, $tag, 1 );
}

/**
 * The colours the settings set, as the widget's custom properties. With an accent but no text
 * colour, the text is the one of the widget's two (white, or its dark blue) that reads better on it.
 *
 * @param array $settings The settings.
 * @return array<string,string> Colours by custom property.
 */
function venue_booking_colours( $settings ) {
	$colours = array();
	if ( '' !== $settings['accent'] ) {
		$colours['--vb-accent'] = $settings['accent'];
	}
	$text = $settings['accent_text'];
	if ( '' === $text && '' !== $settings['accent'] ) {
		$text = venue_booking_contrast( '#ffffff', $settings['accent'] ) >= venue_booking_contrast( '#0b1a26', $settings['accent'] )
			? '#ffffff'
			: '#0b1a26';
	}
	if ( '' !== $text ) {
		$colours['--vb-accent-text'] = $text;
	}
	return $colours;
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
