/** Business constants from the specification (section 9). */

/** Access-token lifetime: the spec assumes 3600 s from login or refresh. */
export const SESSION_LIFETIME_SECONDS = 3600;
/** Refresh tokens outlive access tokens so a till left open overnight can renew in the morning. */
export const REFRESH_LIFETIME_SECONDS = 14 * 24 * 3600;
/** The web app renews its token this long before it expires. */
export const REFRESH_AHEAD_SECONDS = 120;
/** A chunk-load failure reloads the page at most once in this window. */
export const RELOAD_GUARD_MS = 10_000;

/**
 * The spec allows names of 3 or of 5 characters at the least, 50 at the most. Every named record
 * here takes 3 (brands, categories, products, combos, discounts, stores, suppliers): a Khmer name as
 * short as ទឹក ("water") is 3 characters. Customers and units take 1 (a customer known by one
 * syllable, a unit called "m").
 */
export const NAME_MIN_SHORT = 3;
export const NAME_MAX = 50;
export const PASSWORD_MIN = 8;

export const DEFAULT_CURRENCY = 'USD';

/** A product's picture: at most this many megabytes (JPEG, PNG or WebP). */
export const PRODUCT_IMAGE_MAX_MB = 5;

/** The most decimals a unit may have: grams of a kilogram (contracts scale.ts). */
export const UNIT_DECIMALS_MAX = 3;
