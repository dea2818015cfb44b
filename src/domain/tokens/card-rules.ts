import { ApiError } from '../../errors/api-error.js';

/** Pure card-data rules: Luhn, brand, expiry, CVC. Errors are 402 card_error with a dotted param. */

export const CARD_BRANDS = ['visa', 'mastercard', 'amex', 'discover', 'jcb', 'diners', 'unionpay', 'unknown'] as const;
export type CardBrand = (typeof CARD_BRANDS)[number];

interface BrandRule {
  brand: CardBrand;
  /** Inclusive ranges of the number's leading digits. */
  prefixes: readonly (readonly [number, number])[];
  lengths: readonly number[];
  cvcLength: number;
}

const range = (from: number, to = from) => [from, to] as const;

/** Order matters: narrower ranges first (Discover's 622126–622925 before UnionPay's 62). */
const BRAND_RULES: readonly BrandRule[] = [
  { brand: 'amex', prefixes: [range(34), range(37)], lengths: [15], cvcLength: 4 },
  { brand: 'visa', prefixes: [range(4)], lengths: [13, 16, 19], cvcLength: 3 },
  { brand: 'mastercard', prefixes: [range(51, 55), range(2221, 2720)], lengths: [16], cvcLength: 3 },
  {
    brand: 'discover',
    prefixes: [range(6011), range(644, 649), range(65), range(622126, 622925)],
    lengths: [16, 17, 18, 19],
    cvcLength: 3,
  },
  { brand: 'jcb', prefixes: [range(3528, 3589)], lengths: [16, 17, 18, 19], cvcLength: 3 },
  { brand: 'diners', prefixes: [range(300, 305), range(36), range(38, 39)], lengths: [14, 15, 16, 17, 18, 19], cvcLength: 3 },
  { brand: 'unionpay', prefixes: [range(62), range(81)], lengths: [16, 17, 18, 19], cvcLength: 3 },
];

const UNKNOWN_LENGTHS = [12, 13, 14, 15, 16, 17, 18, 19];

function matches(digits: string, [from, to]: readonly [number, number]): boolean {
  const width = String(from).length;
  const lead = Number(digits.slice(0, width));
  return digits.length >= width && lead >= from && lead <= to;
}

export function detectBrand(digits: string): CardBrand {
  return BRAND_RULES.find((rule) => rule.prefixes.some((p) => matches(digits, p)))?.brand ?? 'unknown';
}

export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return digits.length > 0 && sum % 10 === 0;
}

export interface CardInput {
  number: string;
  exp_month: number;
  exp_year: number;
  cvc?: string | undefined;
}

export interface ValidCard {
  number: string;
  brand: CardBrand;
  last4: string;
  expMonth: number;
  expYear: number;
  cvc: string | null;
}

/** How far ahead an expiry year may be before it is treated as a typo. */
export const MAX_EXPIRY_YEARS_AHEAD = 50;

function cardError(
  code: 'incorrect_number' | 'invalid_expiry_month' | 'invalid_expiry_year' | 'expired_card' | 'invalid_cvc',
  message: string,
  param: string,
) {
  return new ApiError(code, message, { param });
}

/** Checks well-formed card data; the first problem found is a 402 naming the field. */
export function validateCard(card: CardInput, nowMs: number): ValidCard {
  const number = card.number.replace(/[ -]/g, '');
  if (!/^\d+$/.test(number)) throw cardError('incorrect_number', 'Your card number is incorrect.', 'card.number');
  const brand = detectBrand(number);
  const lengths = BRAND_RULES.find((r) => r.brand === brand)?.lengths ?? UNKNOWN_LENGTHS;
  if (!lengths.includes(number.length) || !luhnValid(number)) {
    throw cardError('incorrect_number', 'Your card number is incorrect.', 'card.number');
  }
  if (!Number.isInteger(card.exp_month) || card.exp_month < 1 || card.exp_month > 12) {
    throw cardError('invalid_expiry_month', 'Your card’s expiration month is invalid.', 'card.exp_month');
  }
  const now = new Date(nowMs);
  const thisYear = now.getUTCFullYear();
  const year = card.exp_year < 100 && card.exp_year >= 0 ? 2000 + card.exp_year : card.exp_year;
  if (year < 2000 || year > thisYear + MAX_EXPIRY_YEARS_AHEAD) {
    throw cardError('invalid_expiry_year', 'Your card’s expiration year is invalid.', 'card.exp_year');
  }
  if (year < thisYear || (year === thisYear && card.exp_month < now.getUTCMonth() + 1)) {
    throw cardError('expired_card', 'Your card has expired.', 'card.exp_year');
  }
  let cvc: string | null = null;
  if (card.cvc !== undefined) {
    const expected = BRAND_RULES.find((r) => r.brand === brand)?.cvcLength;
    const ok = /^\d{3,4}$/.test(card.cvc) && (expected === undefined || card.cvc.length === expected);
    if (!ok) throw cardError('invalid_cvc', 'Your card’s security code is invalid.', 'card.cvc');
    cvc = card.cvc;
  }
  return { number, brand, last4: number.slice(-4), expMonth: card.exp_month, expYear: year, cvc };
}

/** The simulated processor treats every card as credit; a live connector reports the real funding. */
export function fundingOf(_brand: CardBrand): 'credit' | 'debit' | 'prepaid' | 'unknown' {
  return 'credit';
}
