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
 * (README "Attributes"). `api` and `partner-source` are not among them, and `return-url` is kept
 * only on this site's own host (venue_booking_on_this_site): the widget talks only to the proxy of
 * the settings, and guests go back, with their name, email and reference, only where someone who
 * may manage options has said (the settings' `return_url` and `partner_source`), so no post can
 * send guests' details elsewhere.
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

/** The colour settings by the widget's custom property they set. */
const VENUE_BOOKING_COLOURS = array(
	'accent'      => '--vb-accent',
	'accent_text' => '--vb-accent-text',
	'background'  => '--vb-background',
	'text'        => '--vb-text',
);

/**
 * The settings: the saved option over the defaults this download came with (defaults.php, the one
 * list of the settings' names, which the proxy writes in full). The venues' and types' names come
 * from the download only.
 *
 * @return array<string,mixed> The settings by the names defaults.php lists.
 */
function venue_booking_settings() {
	$defaults = include __DIR__ . '/defaults.php';
	$saved    = get_option( 'venue_booking', array() );
	$saved    = is_array( $saved ) ? array_diff_key( array_intersect_key( $saved, $defaults ), array_flip( array( 'names', 'types' ) ) ) : array();
	return array_merge( $defaults, $saved );
}

/**
 * A venue's name for people: the name the download gave, else its id.
 *
 * @param string $id       A venue's id.
 * @param array  $settings The settings.
 * @return string The name.
 */
function venue_booking_venue_name( $id, $settings ) {
	return isset( $settings['names'][ $id ] ) && is_string( $settings['names'][ $id ] ) ? $settings['names'][ $id ] : $id;
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
		if ( preg_match( VENUE_BOOKING_ATTRIBUTES[ $name ], $value ) && ( 'return-url' !== $name || venue_booking_on_this_site( $value ) ) ) {
			$attributes[ $name ] = $value;
		}
	}
	$settings = venue_booking_settings();
	if ( empty( $attributes['return-url'] ) && '' !== $settings['return_url'] ) {
		$attributes['return-url'] = $settings['return_url'];
	}
	if ( '' !== $settings['partner_source'] ) {
		$attributes['partner-source'] = $settings['partner_source'];
	}
	if ( empty( $attributes['venue'] ) && empty( $attributes['venue-group'] ) ) {
		if ( '' !== $settings['group'] ) {
			$attributes['venue-group'] = $settings['group'];
		} elseif ( '' !== $settings['venues'] ) {
			$attributes['venue'] = $settings['venues'];
		}
		// The settings' booking type is one of the settings' venues: it goes with them only.
		if ( empty( $attributes['type'] ) && '' !== $settings['type'] ) {
			$attributes['type'] = $settings['type'];
		}
	}
	if ( empty( $attributes['theme'] ) && 'light' !== $settings['theme'] ) {
		$attributes['theme'] = $settings['theme'];
	}
	$language = substr( get_locale(), 0, 2 );
	if ( empty( $attributes['locale'] ) && '' !== $settings['locale'] ) {
		$attributes['locale'] = $settings['locale'];
	} elseif ( empty( $attributes['locale'] ) && in_array( $language, array( 'fr', 'de', 'es', 'nl' ), true ) ) {
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
 * Whether a post's return address is on this site's own host (home_url()'s), with no user name in
 * it and no backslash (which browsers read as a slash, and PHP's parser does not): the booking site
 * sends the guest back there with their details, so an address on another host is the settings'.
 *
 * @param string $address An http(s) address.
 * @return bool Whether a post may name it.
 */
function venue_booking_on_this_site( $address ) {
	$host = wp_parse_url( $address, PHP_URL_HOST );
	return is_string( $host ) && false === strpos( $address, '\\' ) && null === wp_parse_url( $address, PHP_URL_USER )
		&& strtolower( $host ) === strtolower( (string) wp_parse_url( home_url(), PHP_URL_HOST ) );
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
	return '<div' . $wrapper . '><venue-booking' . $markup . '>' . venue_booking_fallback( $attributes, $settings ) . '</venue-booking></div>';
}

/**
 * The widget's fallback, shown where its script cannot run and under an error, in the widget's
 * language (words.php, the words of the studio's snippet): the venue's own booking page, else its
 * page on the booking proxy (the group's, or the first venue's, in the same look), and its phone.
 *
 * @param array $attributes The element's attributes.
 * @param array $settings   The settings.
 * @return string The fallback's markup, escaped.
 */
function venue_booking_fallback( $attributes, $settings ) {
	$all      = include __DIR__ . '/words.php';
	$language = strtolower( substr( $attributes['locale'] ?? 'en', 0, 2 ) );
	$words    = $all[ $language ] ?? $all['en'];
	$page     = $settings['link'];
	if ( '' === $page ) {
		$venue = $attributes['venue-group'] ?? explode( ',', $attributes['venue'] ?? '' )[0];
		$look  = array_filter(
			array(
				'locale' => $attributes['locale'] ?? '',
				'theme'  => 'light' === ( $attributes['theme'] ?? 'light' ) ? '' : $attributes['theme'],
			)
		);
		foreach ( VENUE_BOOKING_COLOURS as $name => $property ) {
			if ( '' !== $settings[ $name ] ) {
				$look[ str_replace( '_', '-', $name ) ] = $settings[ $name ];
			}
		}
		$page = $settings['proxy'] . '/book/' . rawurlencode( $venue ) . ( $look ? '?' . http_build_query( $look, '', '&', PHP_QUERY_RFC3986 ) : '' );
	}
	$ways = array( '<a href="' . esc_url( $page ) . '">' . esc_html( $words['page'] ) . '</a>' );
	if ( '' !== $settings['phone'] ) {
		$ways[] = implode(
			'<a href="' . esc_url( 'tel:' . preg_replace( '/[^+0-9]/', '', $settings['phone'] ), array( 'tel' ) ) . '">' . esc_html( $settings['phone'] ) . '</a>',
			array_map( 'esc_html', explode( '%s', $words['call'] ) )
		);
	}
	return '<p>' . implode( implode( esc_html( $words['or'] ), $ways ), array_map( 'esc_html', explode( '%s', $words['sentence'] ) ) ) . '</p>';
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
				'names'  => (object) $settings['names'],
				'types'  => (object) $settings['types'],
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
 * The colours the settings set, as the widget's custom properties. Without a text colour on the
 * accent the widget picks white or black itself, as it does for the studio's snippet.
 *
 * @param array $settings The settings.
 * @return array<string,string> Colours by custom property.
 */
function venue_booking_colours( $settings ) {
	$colours = array();
	foreach ( VENUE_BOOKING_COLOURS as $name => $property ) {
		if ( '' !== $settings[ $name ] ) {
			$colours[ $property ] = $settings[ $name ];
		}
	}
	return $colours;
}
