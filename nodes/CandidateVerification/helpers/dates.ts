import { DateTime } from 'luxon';

export interface CalendarDate {
	year: number;
	month: number;
	day: number;
}

const DAY_MONTH_YEAR = /^(\d{1,2})[-/.](\d{1,2})[-/.](\d{4})$/;
const YEAR_MONTH_DAY = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})$/;
const DAY_MONTH_NAME_YEAR = /^(\d{1,2})[-\s/.]+([a-z]{3,9})\.?[-\s/.,]+(\d{4})$/i;
/** An ISO date-time; the offset group tells a value carrying its own zone from a UTC instant. */
const ISO_DATE_TIME =
	/^(\d{4})-(\d{2})-(\d{2})[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/i;
const SERIAL_NUMBER = /^\d{4,6}$/;
const MONTH_NAMES = [
	'january',
	'february',
	'march',
	'april',
	'may',
	'june',
	'july',
	'august',
	'september',
	'october',
	'november',
	'december',
];
/** Day 0 of spreadsheet serial dates (Excel, Google Sheets, LibreOffice agree after March 1900). */
const SERIAL_EPOCH = DateTime.utc(1899, 12, 30);
/** Serial numbers from 1 Jan 1910 to 31 Dec 2099: a number outside is not taken for a date. */
const SERIAL_RANGE = { min: 3654, max: 73415 };

function calendarDate(year: number, month: number, day: number): CalendarDate | undefined {
	const date = DateTime.utc(year, month, day);
	return date.isValid && date.day === day ? { year, month, day } : undefined;
}

function ofDateTime(value: DateTime): CalendarDate | undefined {
	return value.isValid ? { year: value.year, month: value.month, day: value.day } : undefined;
}

/**
 * A moment without a zone of its own (a JS Date, an ISO string in UTC: what a Date becomes once
 * serialised) is the day it is in the workflow's time zone. Midnight UTC is the exception: that is
 * how a date without a time is stored (`new Date('1994-05-17')`, sheet dates), so its UTC day is
 * the one meant, in every time zone.
 */
function ofInstant(milliseconds: number, timezone: string): CalendarDate | undefined {
	if (Number.isNaN(milliseconds)) return undefined;
	const utc = DateTime.fromMillis(milliseconds, { zone: 'utc' });
	const local = utc.setZone(timezone);
	const isUtcMidnight = utc.hour === 0 && utc.minute === 0 && utc.second === 0;
	const isLocalMidnight = local.isValid && local.hour === 0 && local.minute === 0;
	return ofDateTime(isUtcMidnight && !isLocalMidnight ? utc : local.isValid ? local : utc);
}

function fromSerial(serial: number): CalendarDate | undefined {
	if (!Number.isFinite(serial)) return undefined;
	const days = Math.floor(serial);
	if (days < SERIAL_RANGE.min || days > SERIAL_RANGE.max) return undefined;
	return ofDateTime(SERIAL_EPOCH.plus({ days }));
}

function fromText(text: string, timezone: string): CalendarDate | undefined {
	let match = DAY_MONTH_YEAR.exec(text);
	if (match) return calendarDate(Number(match[3]), Number(match[2]), Number(match[1]));
	match = YEAR_MONTH_DAY.exec(text);
	if (match) return calendarDate(Number(match[1]), Number(match[2]), Number(match[3]));
	match = DAY_MONTH_NAME_YEAR.exec(text);
	if (match) {
		const name = match[2].toLowerCase();
		const month = MONTH_NAMES.findIndex((monthName) => monthName.startsWith(name)) + 1;
		return month > 0 ? calendarDate(Number(match[3]), month, Number(match[1])) : undefined;
	}
	match = ISO_DATE_TIME.exec(text);
	if (match) {
		const offset = match[4]?.toUpperCase();
		const isUtc = offset === 'Z' || offset === '+00:00' || offset === '+0000';
		if (isUtc) return ofInstant(Date.parse(text.replace(' ', 'T')), timezone);
		// A local time or an offset the writer chose: the date is the one written.
		return calendarDate(Number(match[1]), Number(match[2]), Number(match[3]));
	}
	if (SERIAL_NUMBER.test(text)) return fromSerial(Number(text));
	return undefined;
}

/**
 * The calendar day a user meant, from what n8n flows produce: "DD-MM-YYYY" (also with / or .),
 * "YYYY-MM-DD" (also / or .), "17 May 1994", "17-May-1994", ISO date-times, spreadsheet serial
 * numbers, JS Dates and Luxon DateTimes from expressions. `timezone` is the workflow's time zone.
 * Returns undefined when the value is not a real date.
 */
export function toCalendarDate(value: unknown, timezone: string): CalendarDate | undefined {
	if (value instanceof Date) return ofInstant(value.getTime(), timezone);
	// A DateTime carries its zone: its day there is the day written.
	if (DateTime.isDateTime(value)) return ofDateTime(value);
	if (typeof value === 'number') return fromSerial(value);
	if (typeof value !== 'string') return undefined;
	return fromText(value.trim(), timezone);
}

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

/** DD-MM-YYYY, the format the service wants for a date of birth. */
export function formatDayMonthYear({ year, month, day }: CalendarDate): string {
	return `${pad(day)}-${pad(month)}-${pad(year, 4)}`;
}

/** YYYY-MM-DD, the layout the contract's samples use for employment dates. */
export function formatYearMonthDay({ year, month, day }: CalendarDate): string {
	return `${pad(year, 4)}-${pad(month)}-${pad(day)}`;
}

export function isAfterToday(date: CalendarDate, timezone: string): boolean {
	const today = DateTime.now().setZone(timezone).toISODate() ?? '';
	return formatYearMonthDay(date) > today;
}

/**
 * A moment as Unix seconds. Numbers are taken as Unix seconds (or milliseconds when too large
 * for seconds); strings without an offset are read in the workflow's time zone, as n8n's
 * date picker means them.
 */
export function toUnixSeconds(value: unknown, timezone: string): number | undefined {
	if (typeof value === 'number' || (typeof value === 'string' && /^\d+$/.test(value.trim()))) {
		const number = Number(value);
		return number > 1e11 ? Math.floor(number / 1000) : number;
	}
	if (value instanceof Date) {
		return Number.isNaN(value.getTime()) ? undefined : Math.floor(value.getTime() / 1000);
	}
	if (DateTime.isDateTime(value)) return value.isValid ? Math.floor(value.toSeconds()) : undefined;
	if (typeof value !== 'string' || value.trim() === '') return undefined;
	const parsed = DateTime.fromISO(value.trim(), { zone: timezone });
	return parsed.isValid ? Math.floor(parsed.toSeconds()) : undefined;
}
