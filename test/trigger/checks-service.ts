import nock from 'nock';
import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';

import { TEST_BASE_URL, TestCredentialsHelper } from '../harness/credentials-helper';
import type { FakeWebhookConfigService } from './fake-service';
import type { IncomingNotification } from './trigger-harness';
import { TriggerHarness } from './trigger-harness';

export const STATUS_PATH = '/verification/api/1.0/transactions/info';
export const CHECK_PATH = (name: string) => `/verification/api/1.0/transactions/${name}/info`;

/** An active trigger, and how to post a notification signed with the secret it registered. */
export async function activeTriggerAt(
	service: FakeWebhookConfigService,
	parameters = {},
	credentials?: ICredentialDataDecryptedObject,
) {
	const trigger = new TriggerHarness(
		parameters,
		credentials && { credentialsHelper: new TestCredentialsHelper(credentials) },
	);
	await trigger.activate();
	const secret = String(service.requests.at(-1)!.body.apiKey);
	const post = (body: object): IncomingNotification => ({
		headers: { 'content-type': 'application/json', 'x-api-key': secret, 'x-webhook-key': secret },
		body,
		rawBody: Buffer.from(JSON.stringify(body)),
	});
	return { trigger, post };
}

/** The checks of transaction TXN-1 and their IDs (the subType of each one's status). */
export const IDS: Record<string, string> = {
	'bgv-employment': 'e00000000000000000000001',
	'bgv-degree': 'd00000000000000000000002',
	'bgv-cibil': 'c00000000000000000000003',
};
export const TRANSACTION = {
	transactionId: 'TXN-1',
	candidate: { name: 'Asha Verma' },
	verificationList: Object.keys(IDS).map((name) => ({ name, state: 'IN_PROGRESS' })),
	state: 'IN_PROGRESS',
	report: 'r',
};

/** One answer: its HTTP status and body. */
export type Answer = [number, IDataObject];
/** How a read is answered: one answer for every try, one per try (the last one repeated), or no answer. */
export type Answers = Answer | Answer[] | { networkError: string };

function nth(answers: Answer | Answer[], index: number): Answer {
	if (typeof answers[0] === 'number') return answers as Answer;
	const list = answers as Answer[];
	return list[Math.min(index, list.length - 1)];
}

/**
 * Transaction TXN-1 and its checks' status; every read recorded. `answers` overrides the answers to
 * 'transaction' or to one check's name; `delayMs` delays the answers to those reads (each read is
 * recorded when it is answered).
 */
export function serviceWithChecks(
	answers: Record<string, Answers> = {},
	delayMs: Record<string, number> = {},
): string[] {
	const reads: string[] = [];
	const scope = nock(TEST_BASE_URL).persist();
	const route = (read: string, path: string, normal: Answer) => {
		const interceptor = scope.get(path).query({ orgId: 'org-123', txnId: 'TXN-1' });
		if (delayMs[read] !== undefined) interceptor.delay(delayMs[read]);
		const given = answers[read] ?? normal;
		if (!Array.isArray(given)) {
			// nock destroys the request with what an async reply function throws.
			interceptor.reply(async () => {
				reads.push(read);
				throw Object.assign(new Error('socket hang up'), { code: given.networkError });
			});
			return;
		}
		interceptor.reply(() => {
			const tries = reads.filter((done) => done === read).length;
			reads.push(read);
			return nth(given, tries);
		});
	};
	route('transaction', STATUS_PATH, [200, { code: 0, message: 'Success', data: TRANSACTION }]);
	for (const name of Object.keys(IDS)) {
		route(name, CHECK_PATH(name), [
			200,
			{ code: 0, message: 'Success', data: { verificationName: name, subType: IDS[name] } },
		]);
	}
	return reads;
}
