// Numbers as a language writes them, without Intl (the Compute runtime has none): digits, the
// decimal sign and groups (of three, or three then two in India), from the locale's NumberSymbols.
import type { NumberSymbols } from './types.js';

function digitsOf(text: string, digits: string): string {
  if (digits === '0123456789') return text;
  let out = '';
  for (const ch of text) out += ch >= '0' && ch <= '9' ? digits[ch.charCodeAt(0) - 48] : ch;
  return out;
}

/**
 * `n` with at most `maxFraction` decimals (trailing zeros dropped), grouped as the locale groups:
 * 1200 -> "1,200" (en-US), "1.200" (de-DE), "1200" (es-ES), "١٬٢٠٠" (ar-EG); 1234567 -> "12,34,567" (hi-IN).
 */
export function formatNumber(n: number, symbols: NumberSymbols, maxFraction = 1): string {
  if (!Number.isFinite(n)) return digitsOf('0', symbols.digits);
  const negative = n < 0;
  const fixed = Math.abs(n).toFixed(maxFraction);
  let [whole, fraction = ''] = fixed.split('.') as [string, string?];
  fraction = fraction.replace(/0+$/, '');
  const grouped = whole.length >= 3 + symbols.minimumGroupingDigits;
  const groups: string[] = [];
  if (grouped)
    for (let end = whole.length, size = 3; end > 0; end -= size, size = symbols.secondaryGroup ?? 3)
      groups.unshift(digitsOf(whole.slice(Math.max(0, end - size), end), symbols.digits));
  const wholeText = grouped ? groups.join(symbols.group) : digitsOf(whole, symbols.digits);
  return (
    (negative ? '-' : '') + wholeText + (fraction === '' ? '' : symbols.decimal + digitsOf(fraction, symbols.digits))
  );
}

/** Digits only, no grouping: a year, a day of the month, a clock's "09:05". */
export function formatDigits(text: string | number, symbols: NumberSymbols): string {
  return digitsOf(String(text), symbols.digits);
}
