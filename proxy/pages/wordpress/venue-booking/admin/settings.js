/**
 * The settings page: colour pickers with a live contrast warning (WCAG AA asks 4.5:1 for text on
 * the accent, in the light and the dark theme), and "Check this site", which asks the proxy at the
 * address typed whether it lets this site show the widget (`GET /site-check`, read-only).
 */
( function ( $, __, sprintf ) {
	const THEMES = {
		light: { accent: '#1f5f8b', text: '#ffffff', name: __( 'light', 'venue-booking' ) },
		dark: { accent: '#8cc4ec', text: '#0b1a26', name: __( 'dark', 'venue-booking' ) },
	};
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

	/** The warnings for the colours in the form, as the plugin will apply them (widget.php). */
	const warn = () => {
		const accent = $( '#venue-booking-accent' ).val();
		let text = $( '#venue-booking-accent_text' ).val();
		if ( ! valid( text ) && valid( accent ) ) {
			text = contrast( '#ffffff', accent ) >= contrast( '#0b1a26', accent ) ? '#ffffff' : '#0b1a26';
		}
		const lines = Object.values( THEMES ).flatMap( ( theme ) => {
			const pair = [ valid( text ) ? text : theme.text, valid( accent ) ? accent : theme.accent ];
			const ratio = contrast( pair[ 0 ], pair[ 1 ] );
			return ratio >= 4.5
				? []
				: [
						sprintf(
							/* translators: 1: light or dark, 2: text colour, 3: accent colour, 4: contrast ratio. */
							__(
								'In the %1$s theme, the text on the accent (%2$s on %3$s) has a contrast of %4$s:1, below the 4.5:1 that guests need to read it (WCAG AA).',
								'venue-booking'
							),
							theme.name,
							pair[ 0 ],
							pair[ 1 ],
							Math.min( Math.round( ratio * 100 ) / 100, 4.49 ).toFixed( 2 )
						),
				  ];
		} );
		$( '#venue-booking-contrast' ).text( lines.join( ' ' ) ).toggleClass( 'notice notice-warning', lines.length > 0 );
	};
	$( '[data-colour]' ).wpColorPicker( { change: () => setTimeout( warn ), clear: () => setTimeout( warn ) } );
	$( '[data-colour]' ).on( 'input', warn );
	warn();

	const say = ( text ) => $( '#venue-booking-check-result' ).text( text );
	$( '#venue-booking-check' ).on( 'click', async function () {
		const origin = $( this ).data( 'origin' );
		const proxy = String( $( '#venue-booking-proxy' ).val() ).replace( /\/+$/, '' );
		say( __( 'Asking the booking proxy…', 'venue-booking' ) );
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
			say( sprintf( __( 'The booking proxy at %s did not answer: check its address above.', 'venue-booking' ), proxy ) );
			return;
		}
		const lines = [
			answer.allowed
				? /* translators: %s: this site's address. */
				  sprintf( __( 'Good: the booking proxy lets this site (%s) show the widget.', 'venue-booking' ), origin )
				: /* translators: %s: this site's address. */
				  sprintf(
						__(
							'Not yet: the booking proxy does not let this site (%s) show the widget, so guests would see only the link. Ask whoever runs your booking proxy to add this address to the sites allowed to show your booking widget (their setting VENUE_BOOKING_ORIGINS), then check again.',
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
		say( lines.join( ' ' ) );
	} );
} )( window.jQuery, window.wp.i18n.__, window.wp.i18n.sprintf );
