import { DateTime } from 'luxon';

export interface CalendarDate {
	year: number;
	month: number;
	day: number;
}

const DAY_MONTH_YEAR = /^(\d{1,2})[-/.](\d{1,2})[-/.](\d{4})$/;
const YEAR_MONTH_DAY = /^(\d{4})-(\d{2})-(\d{2})(?:$|[T ])/;

function calendarDate(year: number, month: number, day: number): CalendarDate | undefined {
	const date = DateTime.utc(year, month, day);
	return date.isValid && date.day === day ? { year, month, day } : undefined;
}

function isDateTimeLike(value: unknown): value is { toISODate(): string | null } {
	return typeof value === 'object' && value !== null && 'toISODate' in value;
}

/**
 * Reads the calendar date a user meant from what n8n flows produce: "DD-MM-YYYY" (also with / or .),
 * ISO strings (the date part is taken literally, so a time zone never shifts the day), JS Dates
 * and Luxon DateTimes from expressions. Returns undefined when it is not a real date.
 */
export function toCalendarDate(value: unknown): CalendarDate | undefined {
	if (value instanceof Date) {
		return Number.isNaN(value.getTime())
			? undefined
			: calendarDate(value.getUTCFullYear(), value.getUTCMonth() + 1, value.getUTCDate());
	}
	if (isDateTimeLike(value)) return toCalendarDate(value.toISODate() ?? '');
	if (typeof value !== 'string') return undefined;
	const text = value.trim();
	const dayFirst = DAY_MONTH_YEAR.exec(text);
	if (dayFirst) return calendarDate(Number(dayFirst[3]), Number(dayFirst[2]), Number(dayFirst[1]));
	const yearFirst = YEAR_MONTH_DAY.exec(text);
	if (yearFirst)
		return calendarDate(Number(yearFirst[1]), Number(yearFirst[2]), Number(yearFirst[3]));
	return undefined;
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
