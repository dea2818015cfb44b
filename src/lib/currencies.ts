/**
 * ISO 4217 currencies in circulation, with the number of digits of their minor unit.
 * Amounts on the API are integers in the minor unit (cents for USD, whole yen for JPY).
 */
const TWO_DECIMAL = `AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BMD BND BOB BOV BRL BSD BTN BWP
BYN BZD CAD CDF CHE CHF CHW CNY COP COU CRC CUP CVE CZK DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL
GHS GIP GMD GTQ GYD HKD HNL HTG HUF IDR ILS INR IRR JMD KES KGS KHR KPW KYD KZT LAK LBP LKR LRD LSL
MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MXV MYR MZN NAD NGN NIO NOK NPR NZD PAB PEN PGK PHP
PKR PLN QAR RON RSD RUB SAR SBD SCR SDG SEK SGD SHP SLE SLL SOS SRD SSP STN SVC SYP SZL THB TJS TMT
TOP TRY TTD TWD TZS UAH USD USN UYU UZS VED VES WST XCD XCG YER ZAR ZMW ZWG ZWL`;
const ZERO_DECIMAL = 'BIF CLP DJF GNF ISK JPY KMF KRW PYG RWF UGX UYI VND VUV XAF XOF XPF';
const THREE_DECIMAL = 'BHD IQD JOD KWD LYD OMR TND';
const FOUR_DECIMAL = 'CLF UYW';

const MINOR_UNITS = new Map<string, number>();
for (const [list, digits] of [
  [TWO_DECIMAL, 2],
  [ZERO_DECIMAL, 0],
  [THREE_DECIMAL, 3],
  [FOUR_DECIMAL, 4],
] as const) {
  for (const code of list.split(/\s+/)) if (code) MINOR_UNITS.set(code, digits);
}

export function isKnownCurrency(code: string): boolean {
  return MINOR_UNITS.has(code);
}

export function minorUnitDigits(code: string): number | undefined {
  return MINOR_UNITS.get(code);
}

export const MIN_AMOUNT = 1;
export const MAX_AMOUNT = 99_999_999;
