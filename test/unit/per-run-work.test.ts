import { ExecuteContext } from 'n8n-core';
import type { IExecuteFunctions } from 'n8n-workflow';
import { Expression, sleep } from 'n8n-workflow';

import { ExpressionBatch } from '../../nodes/CandidateVerification/engine/expressions';
import { ItemInput } from '../../nodes/CandidateVerification/engine/itemInput';

import { TEST_API_KEY, TestCredentialsHelper } from '../harness/credentials-helper';
import { runActionNode } from '../harness/run-node';
import { enableMockedNetwork, mockService, success } from '../harness/service-mock';

/**
 * Work a bulk run must do once per run or once per item, not once per field or per request
 * (issue 11: n8n's routing engine decrypted the credential for every item's request, and the
 * all-items check evaluated every field's expression on its own).
 */
const FORM_ID = '65f1c0ffee0000000000abcd';
const PATH = `/verification/api/1.0/ekyc-forms/${FORM_ID}/diy-candidate`;

const mappedByExpressions = {
	resource: 'profile',
	operation: 'create',
	formId: FORM_ID,
	name: '={{ $json.name }}',
	gender: '={{ $json.gender }}',
	additionalFields: {
		// A comment ends at its line: the batch must not swallow the fields after it.
		mobile: '={{ $json.mobile // as typed in the sheet }}',
		email: '={{ $json.email }}',
		dob: '={{ DateTime.fromISO($json.dob) }}',
		fatherName: "={{ $json.fatherName ?? '' }}",
	},
};

const row = (i: number) => ({
	proxyHost: '' as string | undefined,
	name: `Candidate ${i}`,
	gender: 'female',
	mobile: `+91 98765 ${String(10000 + i)}`,
	email: `c${i}@example.com`,
	dob: '1994-05-17',
	fatherName: `Father ${i}`,
});

/** Interceptors for `count` Profile → Create requests, so any request that leaves is recorded. */
function interceptCreates(count: number) {
	const { scope, requests } = mockService();
	scope
		.post(PATH)
		.times(count)
		.reply(200, success({ transactionId: 'TXN-1' }));
	return requests;
}

async function run(count: number) {
	const { scope, requests } = mockService();
	scope
		.post(PATH)
		.times(count)
		.reply(200, () => success({ transactionId: `TXN-${requests.length}` }));
	const getDecrypted = jest.spyOn(TestCredentialsHelper.prototype, 'getDecrypted');
	const evaluate = jest.spyOn(ExecuteContext.prototype, 'evaluateExpression');
	// Every expression n8n evaluates for any node goes through here, whoever asks for it.
	const engine = jest.spyOn(Expression.prototype, 'resolveSimpleParameterValue');
	try {
		const result = await runActionNode({
			items: Array.from({ length: count }, (_, i) => row(i)),
			parameters: mappedByExpressions,
		});
		return {
			result,
			requests,
			credentialReads: getDecrypted.mock.calls.length,
			evaluations: evaluate.mock.calls.length,
			engineEvaluations: engine.mock.calls.filter(([value]) => String(value).startsWith('='))
				.length,
		};
	} finally {
		getDecrypted.mockRestore();
		evaluate.mockRestore();
		engine.mockRestore();
	}
}

describe('Per-run and per-item work of a bulk run', () => {
	enableMockedNetwork();

	it('reads the credential a fixed number of times per run, whatever the item count, and authenticates every request', async () => {
		const two = await run(2);
		const six = await run(6);

		expect(six.result.error).toBeUndefined();
		expect(six.requests).toHaveLength(6);
		for (const request of six.requests) expect(request.headers['x-api-key']).toBe(TEST_API_KEY);
		expect(six.credentialReads).toBe(two.credentialReads);
		expect(six.credentialReads).toBeLessThanOrEqual(2);
	});

	it("evaluates an item's mapped fields with one expression evaluation in the all-items check, with the same values", async () => {
		const { result, requests, evaluations } = await run(3);

		expect(result.error).toBeUndefined();
		expect(evaluations).toBe(3);
		expect(requests.map((request) => request.body)).toEqual(
			[0, 1, 2].map((i) => ({
				name: `Candidate ${i}`,
				gender: 'Female',
				mobile: `+919876510${String(i).padStart(3, '0')}`,
				email: `c${i}@example.com`,
				verificationFields: { dob: '17-05-1994', fatherName: `Father ${i}` },
			})),
		);
	});

	it("n8n's expression engine evaluates once per item: every further item costs exactly one evaluation of its 6 mapped fields", async () => {
		const two = await run(2);
		const six = await run(6);

		expect(six.result.error).toBeUndefined();
		expect(six.engineEvaluations - two.engineEvaluations).toBe(4);
	});

	it('an expression failing for one item: nothing is sent, the run fails with that error, no promise is left to reject unhandled', async () => {
		const requests = interceptCreates(2);
		const unhandled: unknown[] = [];
		const onUnhandled = (reason: unknown) => unhandled.push(reason);
		// eslint-disable-next-line @n8n/community-nodes/no-restricted-globals -- test code run by jest, never published
		process.on('unhandledRejection', onUnhandled);
		try {
			const result = await runActionNode({
				items: [row(0), { ...row(1), email: null }],
				parameters: {
					...mappedByExpressions,
					additionalFields: {
						...mappedByExpressions.additionalFields,
						// Throws for item 1 only: its email is empty and the node it falls back to does not exist.
						email: "={{ $json.email ?? $('No such node').item.json.email }}",
					},
				},
			});
			await sleep(50);

			expect(requests).toHaveLength(0);
			expect(result.error?.message).toBe(
				'Invalid "Email" in item 1: its expression failed: Referenced node doesn\'t exist',
			);
			expect(unhandled).toEqual([]);
		} finally {
			// eslint-disable-next-line @n8n/community-nodes/no-restricted-globals -- test code run by jest, never published
			process.off('unhandledRejection', onUnhandled);
		}
	});

	it("a long all-items check lets n8n's other work run before it ends, and still sends nothing before it ends", async () => {
		const requests = interceptCreates(4);
		const original = ExecuteContext.prototype.evaluateExpression;
		const evaluationsWhenOtherWorkRan: number[] = [];
		const requestsWhenOtherWorkRan: number[] = [];
		const evaluate = jest
			.spyOn(ExecuteContext.prototype, 'evaluateExpression')
			.mockImplementation(function (this: ExecuteContext, ...args) {
				if (evaluate.mock.calls.length === 1) {
					// Other work n8n's main thread has to do, queued when the check starts.
					void sleep(0).then(() => {
						evaluationsWhenOtherWorkRan.push(evaluate.mock.calls.length);
						requestsWhenOtherWorkRan.push(requests.length);
					});
				}
				// An evaluation as slow as n8n's expression sandbox on a busy machine.
				const until = Date.now() + 40;
				while (Date.now() < until);
				return original.apply(this, args);
			});
		try {
			const result = await runActionNode({
				items: [row(0), row(1), row(2), row(3)],
				parameters: mappedByExpressions,
			});

			expect(result.error).toBeUndefined();
			expect(requests).toHaveLength(4);
			expect(evaluationsWhenOtherWorkRan).toHaveLength(1);
			expect(evaluationsWhenOtherWorkRan[0]).toBeLessThan(4);
			expect(requestsWhenOtherWorkRan).toEqual([0]);
		} finally {
			evaluate.mockRestore();
		}
	});

	it('a Request Options expression that fails stops the run before any item is sent', async () => {
		const requests = interceptCreates(3);

		const result = await runActionNode({
			items: [{ ...row(0), proxyHost: undefined }, row(1), row(2)],
			parameters: {
				resource: 'profile',
				operation: 'create',
				formId: FORM_ID,
				mappingMode: 'autoMapInputData',
				// Request Options are read once per run, for the first item (as n8n's routing engine did).
				requestOptions: { proxy: "={{ $json.proxyHost ?? $('No such node').item.json.x }}" },
			},
		});
		await sleep(50);

		expect(result.error?.message).toBe("Referenced node doesn't exist");
		expect(requests).toHaveLength(0);
	});

	it('Execute Once: the node runs, checks and sends the first item only (an invalid later item does not matter)', async () => {
		const requests = interceptCreates(3);

		const result = await runActionNode({
			items: [row(0), row(1), { ...row(2), email: 'not-an-email' }],
			parameters: mappedByExpressions,
			executeOnce: true,
		});

		expect(result.error).toBeUndefined();
		expect(requests).toHaveLength(1);
		expect(requests[0].body).toMatchObject({ name: 'Candidate 0' });
		expect(result.items).toEqual([
			{
				json: { transactionId: 'TXN-1', formId: FORM_ID, name: 'Candidate 0' },
				pairedItem: { item: 0 },
			},
		]);
	});

	it("names the field whose expression fails when the item's combined evaluation fails", () => {
		const parameters = {
			name: '={{ $json.name }}',
			additionalFields: { email: '={{ $json.email.address }}' },
		};
		const evaluated: string[] = [];
		const context = {
			getNode: () => ({ parameters }),
			evaluateExpression: (expression: string) => {
				evaluated.push(expression);
				if (expression.includes('email')) throw new Error('no email here');
				return 'Asha';
			},
		} as unknown as IExecuteFunctions;
		const input = new ItemInput(
			context,
			4,
			{ json: {} },
			'Asia/Kolkata',
			new ExpressionBatch(parameters),
		);

		expect(input.param('name', 'Candidate Name')).toBe('Asha');
		expect(input.param('additionalFields.email', 'Email')).toBeUndefined();
		expect(input.problems).toEqual([
			{ itemIndex: 4, field: 'Email', text: 'its expression failed: no email here' },
		]);
		// The combined evaluation first, then each field alone.
		expect(evaluated).toHaveLength(3);
		expect(evaluated[0]).toMatch(/^\{\{ \[/);
	});
});
