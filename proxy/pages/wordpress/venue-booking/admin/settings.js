/**
 * The settings page: the colour pickers redraw the contrast warning as the colours or the theme
 * change, as the settings page's own check does (settings.php `venue_booking_contrast_warnings`),
 * with the embed studio's colours, needs and words that the page hands over (`venueBookingContrast`,
 * from contrast.php); and "Check this site", which asks the proxy at the address typed whether it
 * lets this site show the widget (`GET /site-check`, read-only). Until a colour changes, the
 * warnings shown are the server's, on the saved values.
 */
( function ( $, __, sprintf, check ) {
	const luminance = ( colour ) => {
		let hex = colour.replace( '#', '' );
		if ( hex.length === 3 ) hex = hex.replace( /./g, '$&$&' );
		const [ r, g, b ] = [ 0, 2, 4 ].map( ( at ) => {
			const value = parseInt( hex.slice( at, at + 2 ), 16 ) / 255;
			return value <= 0.04045 ? value / 12.92 : Math.pow( ( value + 0.055 ) / 1.055, 2.4 );
		} );
		return 0.2126 * r + 0.7152 * g + 0.0722 * b;
	};
	const contrast = ( a, b ) => {
		const [ darker, lighter ] = [ luminance( a ), luminance( b ) ].sort( ( x, y ) => x - y );
		return ( lighter + 0.05 ) / ( darker + 0.05 );
	};
	const valid = ( colour ) => /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.test( colour || '' );
	const colour = ( name ) => {
		const value = String( $( '#venue-booking-' + name ).val() || '' );
		return valid( value ) ? value : '';
	};

	/** The warnings for the colours and theme in the form, as settings.php words them. */
	const warn = () => {
		const theme = $( '#venue-booking-theme' ).val();
		const shown = theme === 'auto' ? [ 'light', 'dark' ] : [ theme === 'dark' ? 'dark' : 'light' ];
		const lines = shown.flatMap( ( name ) => {
			const defaults = check.themes[ name ];
			const accent = colour( 'accent' ) || defaults.accent;
			let text = colour( 'accent_text' );
			if ( ! text ) {
				text = ! colour( 'accent' )
					? defaults.accent_text
					: contrast( accent, '#ffffff' ) >= contrast( accent, '#000000' )
					? '#ffffff'
					: '#000000';
			}
			const surface = colour( 'background' ) || defaults.background;
			const ratios = { text: contrast( text, accent ), outline: contrast( accent, surface ) };
			return Object.entries( ratios )
				.filter( ( [ pair, ratio ] ) => ratio < check.checks[ pair ].needed )
				.map( ( [ pair, ratio ] ) =>
					sprintf(
						check.sentence,
						name === 'dark' ? __( 'dark', 'venue-booking' ) : __( 'light', 'venue-booking' ),
						check.checks[ pair ].what,
						ratio.toFixed( 2 ),
						String( check.checks[ pair ].needed ),
						check.checks[ pair ][ name ]
					)
				);
		} );
		$( '#venue-booking-contrast' )
			.empty()
			.append( lines.map( ( line ) => $( '<p>' ).text( line ) ) )
			.attr( 'class', lines.length ? 'notice notice-warning inline' : '' );
	};
	$( '[data-colour]' ).wpColorPicker( { change: () => setTimeout( warn ), clear: () => setTimeout( warn ) } );
	$( '[data-colour]' ).on( 'input', warn );
	$( '#venue-booking-theme' ).on( 'change', warn );

	const result = $( '#venue-booking-check-result' );
	$( '#venue-booking-check' ).on( 'click', async function () {
		const origin = $( this ).data( 'origin' );
		const proxy = String( $( '#venue-booking-proxy' ).val() ).replace( /\/+$/, '' );
		result.text( __( 'Asking the booking proxy…', 'venue-booking' ) );
		let answer;
		try {
			const response = await fetch( proxy + '/site-check?origin=' + encodeURIComponent( origin ), {
				credentials: 'omit',
				signal: AbortSignal.timeout( 10000 ),
			} );
			answer = ( await response.json() ).payload;
			if ( ! response.ok || typeof answer.allowed !== 'boolean' ) throw new Error( String( response.status ) );
		} catch {
			/* translators: %s: the proxy's address. */
			result.text( sprintf( __( 'The booking proxy at %s did not answer: check its address above.', 'venue-booking' ), proxy ) );
			return;
		}
		const lines = [
			answer.allowed
				? /* translators: %s: this site's address. */
				  sprintf( __( 'Good: the booking proxy lets this site (%s) show the widget.', 'venue-booking' ), origin )
				: /* translators: %s: this site's address. */
				  sprintf(
						__(
							'Not yet: the booking proxy does not let this site (%s) show the widget, so guests would see only the link. Open the embed studio, and under “Sites allowed to show your booking widget” press “Allow this site” beside this address (it is listed once a page of this site has shown the widget); then check again.',
							'venue-booking'
						),
						origin
				  ),
		];
		const pinned = $( '#venue-booking-integrity' );
		if ( answer.integrity && answer.integrity !== pinned.val() ) {
			lines.push(
				__(
					'The proxy now serves a newer widget than this plugin expects: its integrity hash has been filled in under “For your web person”. Save the settings to use it.',
					'venue-booking'
				)
			);
			pinned.val( answer.integrity );
		}
		result.text( lines.join( ' ' ) );
		if ( ! answer.allowed ) {
			result.append(
				' ',
				$( '<a>' )
					.attr( 'href', proxy + '/embed' )
					.attr( 'target', '_blank' )
					.attr( 'rel', 'noopener' )
					.text( __( 'Open the embed studio', 'venue-booking' ) )
			);
		}
	} );
} )( window.jQuery, window.wp.i18n.__, window.wp.i18n.sprintf, window.venueBookingContrast );
