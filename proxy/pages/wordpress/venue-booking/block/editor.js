/**
 * The Venue booking block in the editor: its settings in the sidebar (venue or group, booking type
 * by name, theme, inline or popup, language) and a preview rendered by the server, as the page will
 * show it. Venues are named as the plugin's download named them, at once; their booking types are
 * read from the proxy. "As in the settings" offers the settings' venues' types too, so one venue in
 * the settings is enough to choose a type. Plain JavaScript on WordPress's globals, so the plugin
 * needs no build step.
 */
( function ( wp, settings ) {
	const el = wp.element.createElement;
	const { useEffect, useState } = wp.element;
	const { __ } = wp.i18n;
	const { InspectorControls, useBlockProps } = wp.blockEditor;
	const { Notice, PanelBody, SelectControl } = wp.components;
	const ServerSideRender = wp.serverSideRender;
	const proxy = settings.proxy;
	const configured = settings.venues ? settings.venues.split( ',' ) : [];
	const names = settings.names || {};

	/** A read of the proxy's API (this site's address must be allowed there), within 10 seconds. */
	const read = ( path ) =>
		fetch( proxy + '/api/' + path, { credentials: 'omit', signal: AbortSignal.timeout( 10000 ) } ).then(
			( response ) => ( response.ok ? response.json() : Promise.reject( new Error( String( response.status ) ) ) )
		);

	/** The venues this site books for, with their names and booking types, read once per editor. */
	let venuesRead = null;
	const readVenues = () => {
		venuesRead =
			venuesRead ||
			( settings.group
				? read( 'venues?venue_group=' + encodeURIComponent( settings.group ) ).then( ( answer ) =>
						answer.payload.pages.map( ( page ) => page._id )
				  )
				: Promise.resolve( configured )
			).then( ( ids ) =>
				Promise.all(
					ids.map( ( id ) =>
						read( 'venues/' + encodeURIComponent( id ) + '?fields=booking_types' ).then( ( answer ) => ( {
							id,
							title: names[ id ] || answer.payload.venue.title || id,
							types: answer.payload.venue.booking_types || [],
						} ) )
					)
				)
			);
		return venuesRead;
	};

	const LANGUAGES = [
		[ '', __( 'As in the settings (else the site’s language)', 'venue-booking' ) ],
		[ 'en-GB', 'English' ],
		[ 'fr', 'Français' ],
		[ 'de', 'Deutsch' ],
		[ 'es', 'Español' ],
		[ 'nl', 'Nederlands' ],
	];
	const options = ( pairs ) => pairs.map( ( [ value, label ] ) => ( { value, label } ) );

	function Edit( { attributes, setAttributes } ) {
		// The settings' venues by name while the proxy is asked for their booking types.
		const [ venues, setVenues ] = useState(
			configured.map( ( id ) => ( { id, title: names[ id ] || id, types: [] } ) )
		);
		const [ problem, setProblem ] = useState( '' );
		useEffect( () => {
			readVenues().then( setVenues, () =>
				setProblem(
					__(
						'The booking proxy did not answer this site: use “Check this site” under Settings → Venue booking.',
						'venue-booking'
					)
				)
			);
		}, [] );
		const where = attributes.group ? 'group:' + attributes.group : attributes.venue;
		const places = [ [ '', __( 'As in the settings', 'venue-booking' ) ] ];
		if ( settings.group ) {
			places.push( [ 'group:' + settings.group, __( 'Every venue of the group', 'venue-booking' ) ] );
		}
		venues.forEach( ( venue ) => places.push( [ venue.id, venue.title ] ) );
		// The venues a type is chosen among: the block's one venue, else the settings' (a group's too).
		const chosen = attributes.venue
			? venues.filter( ( venue ) => venue.id === attributes.venue )
			: venues.filter( ( venue ) => settings.group || configured.includes( venue.id ) );
		const seen = new Set();
		const types = [ [ '', __( 'Guests choose', 'venue-booking' ) ] ].concat(
			chosen.flatMap( ( venue ) =>
				venue.types
					.filter( ( type ) => ! seen.has( type.id ) && seen.add( type.id ) )
					.map( ( type ) => [
						type.id,
						chosen.length > 1 ? ( type.name || type.id ) + ' (' + venue.title + ')' : type.name || type.id,
					] )
			)
		);
		const controls = el(
			InspectorControls,
			null,
			el(
				PanelBody,
				{ title: __( 'Booking', 'venue-booking' ) },
				problem ? el( Notice, { status: 'warning', isDismissible: false }, problem ) : null,
				el( SelectControl, {
					label: __( 'Venue', 'venue-booking' ),
					value: where,
					options: options( places ),
					onChange: ( value ) =>
						setAttributes(
							value.startsWith( 'group:' )
								? { group: value.slice( 6 ), venue: '', type: '' }
								: { venue: value, group: '', type: '' }
						),
				} ),
				el( SelectControl, {
					label: __( 'Booking type', 'venue-booking' ),
					help: chosen.length ? '' : __( 'Choose a venue to offer one booking type only.', 'venue-booking' ),
					value: attributes.type,
					options: options( types ),
					disabled: ! chosen.length,
					onChange: ( type ) => setAttributes( { type } ),
				} )
			),
			el(
				PanelBody,
				{ title: __( 'Look', 'venue-booking' ) },
				el( SelectControl, {
					label: __( 'Shown as', 'venue-booking' ),
					value: attributes.mode,
					options: options( [
						[ 'inline', __( 'On the page', 'venue-booking' ) ],
						[ 'popup', __( 'A button that opens it', 'venue-booking' ) ],
					] ),
					onChange: ( mode ) => setAttributes( { mode } ),
				} ),
				el( SelectControl, {
					label: __( 'Theme', 'venue-booking' ),
					value: attributes.theme,
					options: options( [
						[ '', __( 'As in the settings', 'venue-booking' ) ],
						[ 'light', __( 'Light', 'venue-booking' ) ],
						[ 'dark', __( 'Dark', 'venue-booking' ) ],
						[ 'auto', __( 'Follows the visitor’s setting', 'venue-booking' ) ],
					] ),
					onChange: ( theme ) => setAttributes( { theme } ),
				} ),
				el( SelectControl, {
					label: __( 'Language', 'venue-booking' ),
					value: attributes.locale,
					options: options( LANGUAGES ),
					onChange: ( locale ) => setAttributes( { locale } ),
				} )
			)
		);
		return el(
			'div',
			useBlockProps(),
			controls,
			el( ServerSideRender, { block: 'venue-booking/widget', attributes } )
		);
	}

	wp.blocks.registerBlockType( 'venue-booking/widget', { edit: Edit, save: () => null } );
} )( window.wp, window.venueBookingEditor || {} );
