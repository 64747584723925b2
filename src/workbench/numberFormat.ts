// A small Excel number-format formatter for the workbench's grid: enough of Excel's format language for the
// formats the add-in writes (the engine's accounting formats, the transactions table's amount and date
// formats, General and '@') and the common built-ins a user might see.
//
// Supported: up to four sections (positive; negative; zero; text), literals ("text", \x, $ - + ( ) : / and
// spaces), _x (the width of x: a space here), *x (fill: the cell is split there, the left part at the left
// edge, the right part at the right edge), 0 # ? placeholders, thousands separators, trailing-comma scaling,
// %, [Color] and [$sym-locale] brackets, @, and dates and times (y m d h s AM/PM). Not supported (shown as
// General): conditions such as [>100], scientific notation, fractions.

import type { DateSystem } from '../engine/dates';

export interface Formatted {
  /** What the cell reads as, fill collapsed to one space and the padding trimmed: "$ 1,234.56", "$ (12)". */
  text: string;
  /** With a fill (*x): the part before it (left edge) and after it (right edge). */
  left?: string;
  right?: string;
  align: 'left' | 'right' | 'center';
  /** [Red], [Blue]...: the section's colour, lower case. */
  color?: string;
}

export type CellValue = string | number | boolean;

export interface FormatOptions {
  /** The workbook's date system for date formats (default 1900). */
  dateSystem?: DateSystem;
}

type Token =
  | { t: 'lit'; s: string }
  | { t: 'pad'; s: string }
  | { t: 'fill'; s: string }
  | { t: 'digit'; s: '0' | '#' | '?' }
  | { t: 'dot' }
  | { t: 'comma' }
  | { t: 'percent' }
  | { t: 'text' }
  | { t: 'date'; s: string };

interface Section {
  tokens: Token[];
  color?: string;
  hasCondition: boolean;
}

const DATE_TOKEN = /^(yyyy|yy|mmmmm|mmmm|mmm|mm|m|dddd|ddd|dd|d|hh|h|ss|s|am\/pm|a\/p)/i;
const COLORS = new Set(['black', 'blue', 'cyan', 'green', 'magenta', 'red', 'white', 'yellow']);

/** Splits a format into sections at ';' outside quotes, brackets and escapes. */
export function splitSections(format: string): string[] {
  const out: string[] = [];
  let cur = '';
  for (let i = 0; i < format.length; i++) {
    const ch = format[i];
    if (ch === '"') {
      const end = format.indexOf('"', i + 1);
      const stop = end < 0 ? format.length : end;
      cur += format.slice(i, stop + 1);
      i = stop;
    } else if (ch === '\\' || ch === '_' || ch === '*') {
      cur += format.slice(i, i + 2);
      i += 1;
    } else if (ch === '[') {
      const end = format.indexOf(']', i + 1);
      const stop = end < 0 ? format.length : end;
      cur += format.slice(i, stop + 1);
      i = stop;
    } else if (ch === ';') {
      out.push(cur);
      cur = '';
    } else {
      cur += ch;
    }
  }
  out.push(cur);
  return out;
}

function tokenize(section: string): Section {
  const tokens: Token[] = [];
  let color: string | undefined;
  let hasCondition = false;
  for (let i = 0; i < section.length; i++) {
    const ch = section[i];
    if (ch === '"') {
      const end = section.indexOf('"', i + 1);
      const stop = end < 0 ? section.length : end;
      tokens.push({ t: 'lit', s: section.slice(i + 1, stop) });
      i = stop;
    } else if (ch === '\\') {
      if (i + 1 < section.length) tokens.push({ t: 'lit', s: section[i + 1] });
      i += 1;
    } else if (ch === '_') {
      tokens.push({ t: 'pad', s: section[i + 1] ?? ' ' });
      i += 1;
    } else if (ch === '*') {
      tokens.push({ t: 'fill', s: section[i + 1] ?? ' ' });
      i += 1;
    } else if (ch === '[') {
      const end = section.indexOf(']', i + 1);
      const stop = end < 0 ? section.length : end;
      const inner = section.slice(i + 1, stop);
      if (COLORS.has(inner.toLowerCase())) color = inner.toLowerCase();
      else if (/^[<>=]/.test(inner)) hasCondition = true;
      else if (inner.startsWith('$')) {
        // [$€-407]: a currency symbol with a locale; the symbol is shown.
        const symbol = inner.slice(1).split('-')[0];
        if (symbol) tokens.push({ t: 'lit', s: symbol });
      }
      i = stop;
    } else if (ch === '0' || ch === '#' || ch === '?') {
      tokens.push({ t: 'digit', s: ch });
    } else if (ch === '.') {
      tokens.push({ t: 'dot' });
    } else if (ch === ',') {
      tokens.push({ t: 'comma' });
    } else if (ch === '%') {
      tokens.push({ t: 'percent' });
    } else if (ch === '@') {
      tokens.push({ t: 'text' });
    } else {
      const m = DATE_TOKEN.exec(section.slice(i));
      if (m && /[ymdhsa]/i.test(ch) && !(ch.toLowerCase() === 'a' && !/^a(m\/pm|\/p)/i.test(section.slice(i)))) {
        tokens.push({ t: 'date', s: m[1] });
        i += m[1].length - 1;
      } else {
        tokens.push({ t: 'lit', s: ch });
      }
    }
  }
  return { tokens, color, hasCondition };
}

/** Excel's rounding: half away from zero, at `decimals` places, without binary surprises (1.005 -> 1.01). */
export function roundHalfAway(value: number, decimals: number): number {
  const sign = value < 0 ? -1 : 1;
  const abs = Math.abs(value);
  const digits = String(abs);
  // Shifting the decimal text is exact ("1.005e2" is 100.5); multiplying is not (1.005 * 100 = 100.49999...).
  const shifted = digits.includes('e') ? abs * 10 ** decimals : Number(`${digits}e${decimals}`);
  const rounded = Math.round(shifted);
  return sign * Number(`${rounded}e-${decimals}`) || 0;
}

function groupThousands(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** The digits of |value| for the placeholders of a section (no sign). */
function formatDigits(abs: number, tokens: Token[]): { text: string; scaled: number } {
  // The number run: from the first to the last placeholder.
  const first = tokens.findIndex((t) => t.t === 'digit');
  let last = -1;
  tokens.forEach((t, i) => {
    if (t.t === 'digit') last = i;
  });
  const dotAt = tokens.findIndex((t, i) => t.t === 'dot' && i > first && i <= last + 1);
  const intTokens = tokens.slice(first, dotAt >= 0 ? dotAt : last + 1);
  const decTokens = dotAt >= 0 ? tokens.slice(dotAt + 1, last + 1) : [];
  const intDigits = intTokens.filter((t): t is Extract<Token, { t: 'digit' }> => t.t === 'digit');
  const decDigits = decTokens.filter((t): t is Extract<Token, { t: 'digit' }> => t.t === 'digit');
  // Commas between integer placeholders group thousands; commas right after the last placeholder scale.
  const grouping = intTokens.some((t, i) => t.t === 'comma' && intTokens.slice(i + 1).some((u) => u.t === 'digit'));
  let scale = 0;
  for (let i = last + 1; i < tokens.length && tokens[i].t === 'comma'; i++) scale++;
  const percents = tokens.filter((t) => t.t === 'percent').length;
  let scaled = abs / 1000 ** scale;
  scaled *= 100 ** percents;

  const decimals = decDigits.length;
  const rounded = roundHalfAway(scaled, decimals);
  const fixed = rounded.toFixed(decimals);
  let [intPart, decPart = ''] = fixed.split('.');
  // Integer part: at least as many digits as '0' placeholders; '#' shows nothing for a leading zero.
  const minInt = intDigits.filter((d) => d.s === '0').length;
  if (intPart === '0' && minInt === 0) intPart = '';
  intPart = intPart.padStart(minInt, '0');
  const qmarks = intDigits.filter((d) => d.s === '?').length;
  if (grouping) intPart = groupThousands(intPart);
  if (intPart.length < minInt + qmarks) intPart = intPart.padStart(minInt + qmarks, ' ');
  // Decimal part: '0' keeps zeros, '#' drops trailing zeros, '?' shows them as spaces.
  const chars = decPart.split('');
  for (let i = chars.length - 1; i >= 0; i--) {
    if (chars[i] !== '0') break;
    if (decDigits[i].s === '#') chars[i] = '';
    else if (decDigits[i].s === '?') chars[i] = ' ';
    else break;
  }
  decPart = chars.join('');
  const text = dotAt >= 0 ? `${intPart}.${decPart}` : intPart;
  return { text, scaled: rounded };
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** An Excel serial as a UTC date (1900 system with its fictitious 1900-02-29, or 1904). */
export function serialToDate(serial: number, dateSystem: DateSystem = 1900): Date {
  const days = Math.floor(serial);
  const ms = Math.round((serial - days) * 86400000);
  let base: number;
  if (dateSystem === 1904) base = Date.UTC(1904, 0, 1);
  else if (days >= 61) base = Date.UTC(1899, 11, 30);
  else base = Date.UTC(1899, 11, 31);
  return new Date(base + days * 86400000 + ms);
}

/** An ISO date (yyyy-mm-dd) as an Excel serial, or null. */
export function isoToSerial(iso: string, dateSystem: DateSystem = 1900): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso.trim());
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const t = Date.UTC(y, mo - 1, d);
  const check = new Date(t);
  if (check.getUTCFullYear() !== y || check.getUTCMonth() !== mo - 1 || check.getUTCDate() !== d) return null;
  if (dateSystem === 1904) return Math.round((t - Date.UTC(1904, 0, 1)) / 86400000);
  const serial = Math.round((t - Date.UTC(1899, 11, 30)) / 86400000);
  return serial < 61 ? serial - 1 : serial;
}

function formatDate(value: number, tokens: Token[], dateSystem: DateSystem): string {
  const d = serialToDate(value, dateSystem);
  const hasAmPm = tokens.some((t) => t.t === 'date' && /^a/i.test(t.s));
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  let out = '';
  tokens.forEach((t, i) => {
    if (t.t === 'lit') out += t.s;
    else if (t.t === 'pad') out += ' ';
    else if (t.t === 'digit') out += t.s === '0' ? '0' : '';
    else if (t.t === 'dot') out += '.';
    else if (t.t === 'comma') out += ',';
    else if (t.t === 'date') {
      const s = t.s.toLowerCase();
      // 'm' / 'mm' are minutes right after an hour or right before a second, else months.
      const prev = tokens.slice(0, i).reverse().find((x) => x.t === 'date');
      const next = tokens.slice(i + 1).find((x) => x.t === 'date');
      const minutes = (s === 'm' || s === 'mm') && ((prev && /^h/i.test((prev as { s: string }).s)) || (next && /^s/i.test((next as { s: string }).s)));
      const hours24 = d.getUTCHours();
      switch (s) {
        case 'yyyy':
          out += pad(d.getUTCFullYear(), 4);
          break;
        case 'yy':
          out += pad(d.getUTCFullYear() % 100);
          break;
        case 'mmmmm':
          out += MONTHS[d.getUTCMonth()][0];
          break;
        case 'mmmm':
          out += MONTHS[d.getUTCMonth()];
          break;
        case 'mmm':
          out += MONTHS[d.getUTCMonth()].slice(0, 3);
          break;
        case 'mm':
          out += minutes ? pad(d.getUTCMinutes()) : pad(d.getUTCMonth() + 1);
          break;
        case 'm':
          out += minutes ? String(d.getUTCMinutes()) : String(d.getUTCMonth() + 1);
          break;
        case 'dddd':
          out += DAYS[d.getUTCDay()];
          break;
        case 'ddd':
          out += DAYS[d.getUTCDay()].slice(0, 3);
          break;
        case 'dd':
          out += pad(d.getUTCDate());
          break;
        case 'd':
          out += String(d.getUTCDate());
          break;
        case 'hh':
          out += pad(hasAmPm ? hours24 % 12 || 12 : hours24);
          break;
        case 'h':
          out += String(hasAmPm ? hours24 % 12 || 12 : hours24);
          break;
        case 'ss':
          out += pad(d.getUTCSeconds());
          break;
        case 's':
          out += String(d.getUTCSeconds());
          break;
        case 'am/pm':
          out += hours24 < 12 ? 'AM' : 'PM';
          break;
        case 'a/p':
          out += hours24 < 12 ? 'A' : 'P';
          break;
      }
    }
  });
  return out;
}

/** Excel's General format for a number: up to 11 characters, then fewer decimals or scientific. */
export function formatGeneral(value: number): string {
  if (value === 0) return '0';
  const abs = Math.abs(value);
  if (abs >= 1e11 || abs < 1e-9) {
    return value
      .toExponential(5)
      .replace(/\.?0+e/, 'E')
      .replace(/E([+-])(\d)$/, 'E$10$2')
      .toUpperCase();
  }
  const intDigits = Math.max(1, Math.floor(Math.log10(abs)) + 1);
  const decimals = Math.max(0, 10 - intDigits);
  const text = roundHalfAway(value, decimals).toFixed(decimals);
  return text.includes('.') ? text.replace(/\.?0+$/, '') : text;
}

interface Rendered {
  left: string;
  right: string;
  fill: string | null;
}

function render(tokens: Token[], digits: string | null, textValue: string | null): Rendered {
  let left = '';
  let right = '';
  let fill: string | null = null;
  let digitsPlaced = false;
  const emit = (s: string) => {
    if (fill === null) left += s;
    else right += s;
  };
  const firstDigit = tokens.findIndex((t) => t.t === 'digit');
  let lastDigit = -1;
  tokens.forEach((t, i) => {
    if (t.t === 'digit') lastDigit = i;
  });
  tokens.forEach((t, i) => {
    const inNumber = firstDigit >= 0 && i >= firstDigit && i <= lastDigit;
    switch (t.t) {
      case 'lit':
        emit(t.s);
        break;
      case 'pad':
        emit(' ');
        break;
      case 'fill':
        if (fill === null) fill = t.s;
        break;
      case 'digit':
        if (!digitsPlaced && digits !== null) {
          emit(digits);
          digitsPlaced = true;
        }
        break;
      case 'dot':
      case 'comma':
        if (!inNumber && !(t.t === 'comma' && i > lastDigit && lastDigit >= 0)) emit(t.t === 'dot' ? '.' : ',');
        break;
      case 'percent':
        emit('%');
        break;
      case 'text':
        emit(textValue ?? '');
        break;
      case 'date':
        emit(t.s);
        break;
    }
  });
  return { left, right, fill };
}

function finish(r: Rendered, align: Formatted['align'], color: string | undefined): Formatted {
  const base = color ? { color } : {};
  if (r.fill === null) return { text: r.left.trim(), align, ...base };
  const left = r.left.trim();
  const right = r.right.trim();
  const joiner = r.fill === ' ' ? ' ' : r.fill;
  return { text: [left, right].filter(Boolean).join(joiner), left: r.left.replace(/^\s+/, ''), right: r.right.replace(/\s+$/, ''), align, ...base };
}

/** A cell's value as Excel would show it with this number format. */
export function formatCell(value: CellValue, format: string | undefined, options: FormatOptions = {}): Formatted {
  const dateSystem = options.dateSystem ?? 1900;
  if (typeof value === 'boolean') return { text: value ? 'TRUE' : 'FALSE', align: 'center' };
  const fmt = (format ?? 'General').trim() || 'General';
  const sections = splitSections(fmt).map(tokenize);

  if (typeof value === 'string') {
    if (value.startsWith('#') && /^#(VALUE!|N\/A|REF!|NAME\?|DIV\/0!|NUM!|NULL!|SPILL!|BUSY!|CALC!|FIELD!|CONNECT!|BLOCKED!|UNKNOWN!)$/.test(value)) {
      return { text: value, align: 'center' };
    }
    // The text section: the fourth, or a single section that has '@'.
    const textSection = sections.length >= 4 ? sections[3] : sections.find((s) => s.tokens.some((t) => t.t === 'text'));
    if (!textSection) return { text: value, align: 'left' };
    return finish(render(textSection.tokens, null, value), 'left', textSection.color);
  }

  if (!Number.isFinite(value)) return { text: '#NUM!', align: 'center' };
  if (/^general$/i.test(fmt)) return { text: formatGeneral(value), align: 'right' };

  let section: Section;
  let negativeSign = false;
  if (sections.length === 1 || (sections.length === 2 && value >= 0) || (sections.length >= 3 && value > 0)) {
    section = sections[0];
    negativeSign = value < 0;
  } else if (value < 0) {
    section = sections[1];
  } else if (sections.length >= 3) {
    section = sections[2];
  } else {
    section = sections[0];
  }
  if (section.hasCondition) return { text: formatGeneral(value), align: 'right' };
  const tokens = section.tokens;
  if (tokens.some((t) => t.t === 'date')) {
    if (value < 0) return { text: '#'.repeat(8), align: 'right' };
    return { text: formatDate(value, tokens, dateSystem).trim(), align: 'right', ...(section.color ? { color: section.color } : {}) };
  }
  if (!tokens.some((t) => t.t === 'digit')) {
    // A section of literals only (the accounting zero section "-"): no digits shown.
    const r = render(tokens, null, null);
    return finish(negativeSign ? { ...r, left: `-${r.left}` } : r, 'right', section.color);
  }
  const { text: digits, scaled } = formatDigits(Math.abs(value), tokens);
  // "-0" never shows: a negative that rounds to zero prints without its sign in a one-section format.
  const sign = negativeSign && scaled !== 0 ? '-' : '';
  const r = render(tokens, digits, null);
  if (sign) r.left = sign + r.left;
  return finish(r, 'right', section.color);
}
