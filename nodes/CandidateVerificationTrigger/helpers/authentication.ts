import { timingSafeEqual } from 'node:crypto';
import type { IWebhookFunctions } from 'n8n-workflow';

import { API_KEY_HEADER } from '../../shared/constants';
import { readRegistration, type RegistrationKind } from './registration';

/** The service sends the configured apiKey in both headers; both must carry the secret. */
export const SECRET_HEADERS = [API_KEY_HEADER, 'x-webhook-key'] as const;

function webhookKind(this: IWebhookFunctions): RegistrationKind {
	// Test-URL calls run as manual executions; production calls run in mode 'webhook'.
	return this.getMode() === 'manual' ? 'test' : 'production';
}

function matchesSecret(received: string | string[] | undefined, expected: Buffer): boolean {
	if (typeof received !== 'string') return false;
	const candidate = Buffer.from(received, 'utf8');
	// timingSafeEqual needs equal lengths; the length of a random secret is no secret.
	return candidate.length === expected.length && timingSafeEqual(candidate, expected);
}

/** True when both secret headers carry the secret of the live registration. */
export function isAuthentic(this: IWebhookFunctions): boolean {
	const data = this.getWorkflowStaticData('node');
	const secret = readRegistration(data, webhookKind.call(this))?.secret;
	if (secret === undefined) return false;
	const expected = Buffer.from(secret, 'utf8');
	const headers = this.getHeaderData();
	const results = SECRET_HEADERS.map((name) => matchesSecret(headers[name], expected));
	return results.every(Boolean);
}
