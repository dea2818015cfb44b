/**
 * Card rules for the browser: brand detection, Luhn, formatting and field validation. The
 * service checks the same rules again when it tokenises; these give the customer instant feedback.
 */
export type CardBrand = 'visa' | 'mastercard' | 'amex' | 'discover' | 'jcb' | 'diners' | 'unionpay' | 'unknown';

const BRANDS: readonly { brand: CardBrand; prefixes: readonly (readonly [number, number])[]; lengths: readonly number[]; cvc: number }[] = [
  {
    brand: 'amex',
    prefixes: [
      [34, 34],
      [37, 37],
    ],
    lengths: [15],
    cvc: 4,
  },
  { brand: 'visa', prefixes: [[4, 4]], lengths: [13, 16, 19], cvc: 3 },
  {
    brand: 'mastercard',
    prefixes: [
      [51, 55],
      [2221, 2720],
    ],
    lengths: [16],
    cvc: 3,
  },
  {
    brand: 'discover',
    prefixes: [
      [6011, 6011],
      [644, 649],
      [65, 65],
      [622126, 622925],
    ],
    lengths: [16, 17, 18, 19],
    cvc: 3,
  },
  { brand: 'jcb', prefixes: [[3528, 3589]], lengths: [16, 17, 18, 19], cvc: 3 },
  {
    brand: 'diners',
    prefixes: [
      [300, 305],
      [36, 36],
      [38, 39],
    ],
    lengths: [14, 15, 16, 17, 18, 19],
    cvc: 3,
  },
  {
    brand: 'unionpay',
    prefixes: [
      [62, 62],
      [81, 81],
    ],
    lengths: [16, 17, 18, 19],
    cvc: 3,
  },
];

export const BRAND_NAMES: Record<CardBrand, string> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'American Express',
  discover: 'Discover',
  jcb: 'JCB',
  diners: 'Diners Club',
  unionpay: 'UnionPay',
  unknown: '',
};

export const digitsOnly = (value: string): string => value.replace(/\D/g, '');

export function detectBrand(digits: string): CardBrand {
  const rule = BRANDS.find((r) =>
    r.prefixes.some(([from, to]) => {
      const width = String(from).length;
      const lead = Number(digits.slice(0, width));
      return digits.length >= width && lead >= from && lead <= to;
    }),
  );
  return rule?.brand ?? 'unknown';
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

const lengthsOf = (brand: CardBrand) => BRANDS.find((r) => r.brand === brand)?.lengths ?? [12, 13, 14, 15, 16, 17, 18, 19];
export const cvcLengthOf = (brand: CardBrand) => BRANDS.find((r) => r.brand === brand)?.cvc ?? 3;
export const maxNumberLength = (brand: CardBrand) => Math.max(...lengthsOf(brand));

/** `4242 4242 4242 4242`; American Express as `3782 822463 10005`. */
export function formatNumber(value: string): string {
  const digits = digitsOnly(value).slice(0, 19);
  const groups = detectBrand(digits) === 'amex' ? [4, 6, 5] : [4, 4, 4, 4, 3];
  const out: string[] = [];
  let at = 0;
  for (const size of groups) {
    if (at >= digits.length) break;
    out.push(digits.slice(at, at + size));
    at += size;
  }
  return out.join(' ');
}

/** `12 / 30` as the customer types. */
export function formatExpiry(value: string): string {
  let digits = digitsOnly(value).slice(0, 4);
  if (digits.length === 1 && Number(digits) > 1) digits = `0${digits}`;
  return digits.length > 2 ? `${digits.slice(0, 2)} / ${digits.slice(2)}` : digits;
}

export interface CardFields {
  number: string;
  expiry: string;
  cvc: string;
}

export interface CardData {
  number: string;
  exp_month: number;
  exp_year: number;
  cvc: string;
}

export type FieldErrors = Partial<Record<keyof CardFields, string>>;

export interface CardCheck {
  brand: CardBrand;
  /** Messages for the fields that are wrong (or, with `final`, missing). */
  errors: FieldErrors;
  complete: boolean;
  card?: CardData;
}

/**
 * Checks the three fields. While typing (`final` false) an unfinished field is not an error;
 * on submit (`final` true) it is.
 */
export function checkCard(fields: CardFields, now: Date, final = false): CardCheck {
  const errors: FieldErrors = {};
  const digits = digitsOnly(fields.number);
  const brand = detectBrand(digits);
  const lengths = lengthsOf(brand);
  const numberDone = lengths.includes(digits.length);
  if (digits.length === 0) {
    if (final) errors.number = 'Enter your card number.';
  } else if (numberDone && !luhnValid(digits)) {
    errors.number = 'Your card number is invalid.';
  } else if (!numberDone && (final || digits.length > Math.max(...lengths))) {
    errors.number = 'Your card number is incomplete.';
  }

  const exp = digitsOnly(fields.expiry);
  const month = Number(exp.slice(0, 2));
  const year = 2000 + Number(exp.slice(2, 4));
  if (exp.length === 0) {
    if (final) errors.expiry = 'Enter the expiry date.';
  } else if (exp.length >= 2 && (month < 1 || month > 12)) {
    errors.expiry = 'The expiry month must be between 01 and 12.';
  } else if (exp.length < 4) {
    if (final) errors.expiry = 'The expiry date is incomplete.';
  } else if (year < now.getFullYear() || (year === now.getFullYear() && month < now.getMonth() + 1)) {
    errors.expiry = 'Your card has expired.';
  }

  const cvc = digitsOnly(fields.cvc);
  const cvcLength = cvcLengthOf(brand);
  if (cvc.length === 0) {
    if (final) errors.cvc = 'Enter the security code.';
  } else if (cvc.length > cvcLength || (final && cvc.length < cvcLength)) {
    errors.cvc = `The security code is ${cvcLength} digits.`;
  }

  const complete = numberDone && luhnValid(digits) && exp.length === 4 && cvc.length === cvcLength && Object.keys(errors).length === 0;
  return {
    brand,
    errors,
    complete,
    ...(complete ? { card: { number: digits, exp_month: month, exp_year: year, cvc } } : {}),
  };
}
