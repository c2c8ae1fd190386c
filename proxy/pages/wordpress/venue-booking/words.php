<?php
/**
 * What the widget says where its script cannot run (its fallback), by the language's primary tag:
 * the ways to book joined by `or` into `sentence`, else `contact`. The proxy writes this file into
 * each download from its own page words (proxy/pages/words/), in every language the widget speaks,
 * so the plugin's fallback and the studio's snippet say the same; English here.
 *
 * @package venue-booking
 */

defined( 'ABSPATH' ) || exit;

return array(
	'en' => array(
		'sentence' => 'Please %s.',
		'page'     => 'book on our booking page',
		'call'     => 'call %s',
		'or'       => ' or ',
		'contact'  => 'To book a table, please get in touch with us.',
	),
);
