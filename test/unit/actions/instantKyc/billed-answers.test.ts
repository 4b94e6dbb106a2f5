import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { kycSummary } from '../../../../nodes/CandidateVerification/actions/instantKyc/shared';
import {
	ANSWERS_LISTED,
	answeredBeforeStop,
	howToSendTheRest,
	lostInEarlierTry,
	notSentAfterStop,
} from '../../../../nodes/CandidateVerification/engine/messages';
import { outputJson, runActionNode } from '../../../harness/run-node';
import { enableMockedNetwork, mockService, success } from '../../../harness/service-mock';

/**
 * No billed answer lost or bought twice: under On Error → Stop the error lists every answer already
 * bought (with what a flow branches on) and names only the other items to run; n8n's Retry On Fail
 * never calls again an item answered, or sent without a clear answer, in an earlier try.
 */
enableMockedNetwork();

const PAN_PATH = '/verification/api/1.0/verifications/pan';
const verifyPan = (extra: INodeParameters = {}): INodeParameters => ({
	resource: 'instantKyc',
	operation: 'verifyPan',
	pan: '={{ $json.pan }}',
	requestOptions: { maxConcurrentRequests: 1 },
	...extra,
});
const pans = (count: number) =>
	Array.from({ length: count }, (_, index) => ({ pan: `ABCDE${String(1000 + index)}F` }));

/** The service: `rejected` PANs refused (code -1, naming the PAN), `lost` reset after arriving. */
function service(answers: { rejected?: string[]; lost?: string[] } = {}) {
	const { scope, requests } = mockService();
	scope
		.post(PAN_PATH)
		.times(100)
		.reply((_uri, body, answer) => {
			const { pan } = body as IDataObject;
			if (answers.lost?.includes(String(pan))) {
				answer(
					Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }),
					undefined as never,
				);
			} else if (answers.rejected?.includes(String(pan))) {
				answer(null, [200, { code: -1, message: 'Invalid PAN', data: null }]);
			} else
				answer(null, [200, success({ fullName: `NAME ${String(pan)}`, pan, status: 'VALID' })]);
		});
	const calls = (pan: string) =>
		requests.filter(({ body }) => (body as IDataObject).pan === pan).length;
	return { requests, calls };
}

const answerOf = (pan: string) => ({ valid: true, reason: 'Success', name: `NAME ${pan}` });

describe('Instant KYC: answers bought are never lost', () => {
	it('under Stop, a rejection lists every item already answered (valid, reason, name) and names only the others to run', async () => {
		const items = pans(4);
		const { requests } = service({ rejected: [items[2].pan] });

		const result = await runActionNode({ items, parameters: verifyPan() });

		expect(requests).toHaveLength(3);
		const description = String(result.error?.description);
		expect(description).toContain(
			answeredBeforeStop([
				[0, answerOf(items[0].pan)],
				[1, answerOf(items[1].pan)],
			]),
		);
		const rest = howToSendTheRest({
			creates: false,
			billedPerCall: true,
			skipsRowsSent: false,
			answersLost: false,
			heldInDoubt: false,
			accepted: true,
			lostKeptForTries: true,
		});
		expect(description).toContain(notSentAfterStop([3], rest));
		expect(description).toContain('Correct "PAN" in item 2, then run only that item again.');
		expect(description).not.toMatch(/run (the whole input|all items|the workflow) again/i);
	});

	it(`answers beyond ${ANSWERS_LISTED} are named by index`, async () => {
		const items = pans(ANSWERS_LISTED + 3);
		service({ rejected: [items[ANSWERS_LISTED + 2].pan] });

		const result = await runActionNode({ items, parameters: verifyPan() });

		const answered = items
			.slice(0, ANSWERS_LISTED + 2)
			.map(({ pan }, index): [number, IDataObject] => [index, answerOf(pan)]);
		expect(result.error?.description).toContain(answeredBeforeStop(answered));
		expect(answeredBeforeStop(answered)).toMatch(
			new RegExp(`also answered: item ${ANSWERS_LISTED}, item ${ANSWERS_LISTED + 1}$`),
		);
	});

	it('n8n’s Retry On Fail calls no answered item again, nor one whose answer was lost: each is called once', async () => {
		const items = pans(3);
		const { calls } = service({ lost: [items[1].pan] });

		const result = await runActionNode({
			items,
			parameters: verifyPan(),
			retryOnFail: { maxTries: 3 },
		});

		expect(items.map(({ pan }) => calls(pan))).toEqual([1, 1, 0]);
		const { message } = lostInEarlierTry('Verify a PAN', 1);
		expect(result.error?.message).toBe(message);
		expect(result.error?.description).toContain(answeredBeforeStop([[0, answerOf(items[0].pan)]]));
	});

	it('n8n’s Retry On Fail after a rejection: the answered items come out from the first try, only the others are called', async () => {
		const items = pans(3);
		let rejectOnce = true;
		const { scope, requests } = mockService();
		scope
			.post(PAN_PATH)
			.times(10)
			.reply(200, (_uri, body) => {
				const { pan } = body as IDataObject;
				if (pan === items[1].pan && rejectOnce) {
					rejectOnce = false;
					return { code: -1, message: 'Source unavailable, try again', data: null };
				}
				return success({ fullName: `NAME ${String(pan)}`, pan, status: 'VALID' });
			});

		const result = await runActionNode({
			items,
			parameters: verifyPan(),
			retryOnFail: { maxTries: 2 },
		});

		expect(result.error).toBeUndefined();
		expect(requests.map(({ body }) => (body as IDataObject).pan)).toEqual([
			items[0].pan,
			items[1].pan,
			items[1].pan,
			items[2].pan,
		]);
		expect(outputJson(result).map((json) => kycSummary(json))).toEqual(
			items.map(({ pan }) => answerOf(pan)),
		);
	});
});
