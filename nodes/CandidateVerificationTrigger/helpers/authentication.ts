import { timingSafeEqual } from 'node:crypto';
import type { IWebhookFunctions } from 'n8n-workflow';

import { API_KEY_HEADER } from '../../shared/constants';
import { readRegistration, type RegistrationKind } from './registration';

/**
 * The headers that may carry the secret. The contract says the service sends the configured apiKey in
 * both; nothing public shows what it sends today, so one of them is enough (see refusalReason).
 */
export const SECRET_HEADERS = [API_KEY_HEADER, 'x-webhook-key'] as const;

function webhookKind(this: IWebhookFunctions): RegistrationKind {
	// Test-URL calls run as manual executions; production calls run in mode 'webhook'.
	return this.getMode() === 'manual' ? 'test' : 'production';
}

function matchesSecret(received: string | string[], expected: Buffer): boolean {
	// A header repeated as a list, or sent empty, is present and wrong.
	if (typeof received !== 'string') return false;
	const candidate = Buffer.from(received, 'utf8');
	// timingSafeEqual needs equal lengths; the length of a random secret is no secret.
	return candidate.length === expected.length && timingSafeEqual(candidate, expected);
}

/**
 * Why a notification is refused, or undefined when it is accepted: at least one secret header is
 * present and every one present holds the secret of the live registration. The reason names the
 * headers missing or wrong, never what they held.
 */
export function refusalReason(this: IWebhookFunctions): string | undefined {
	const data = this.getWorkflowStaticData('node');
	const secret = readRegistration(data, webhookKind.call(this))?.secret;
	if (secret === undefined) return 'no registration of this URL is live (no secret stored)';
	const expected = Buffer.from(secret, 'utf8');
	const headers = this.getHeaderData();
	const present = SECRET_HEADERS.filter((name) => headers[name] !== undefined);
	if (present.length === 0) return `neither ${SECRET_HEADERS.join(' nor ')} was sent`;
	// Every present header is compared, so the time taken does not tell which one was wrong.
	const wrong = present.filter((name) => !matchesSecret(headers[name]!, expected));
	if (wrong.length === 0) return undefined;
	const missing = SECRET_HEADERS.filter((name) => !present.includes(name));
	return [
		`${wrong.join(' and ')} ${wrong.length > 1 ? 'do' : 'does'} not hold the secret`,
		...missing.map((name) => `${name} was not sent`),
	].join('; ');
}
