<?php
/**
 * The settings this copy of the plugin starts with, as the embed studio chose them: the booking
 * proxy it was downloaded from, the venues or group, the integrity hash of the widget script the
 * proxy served then, the look, language, booking type and fallback; and the names of the proxy's
 * venues and of their booking types by id, which the settings page and the block show. This is the
 * one list of the settings (widget.php reads their names from it): the proxy writes this file into
 * each download with every name here, in this order; the settings page overrides every value but
 * the names. Where guests return after booking on the booking site and the partner source are the
 * settings page's alone (empty here): no download or post sets them.
 *
 * @package venue-booking
 */

defined( 'ABSPATH' ) || exit;

return array(
	'proxy'          => '',
	'venues'         => '',
	'group'          => '',
	'integrity'      => '',
	'theme'          => 'light',
	'locale'         => '',
	'type'           => '',
	'accent'         => '',
	'accent_text'    => '',
	'background'     => '',
	'text'           => '',
	'link'           => '',
	'phone'          => '',
	'return_url'     => '',
	'partner_source' => '',
	'names'          => array(),
	'types'          => array(),
);
