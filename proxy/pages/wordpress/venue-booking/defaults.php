<?php
/**
 * The settings this copy of the plugin starts with: the booking proxy it was downloaded from, the
 * venue or group chosen there, and the integrity hash of the widget script the proxy served then.
 * The proxy writes this file into each download; the settings page overrides every value.
 *
 * @package venue-booking
 */

defined( 'ABSPATH' ) || exit;

return array(
	'proxy'     => '',
	'venues'    => '',
	'group'     => '',
	'integrity' => '',
);
