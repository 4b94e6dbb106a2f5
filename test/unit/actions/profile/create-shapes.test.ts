/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code run by jest, never published: it reads a record written by 0.4.0 */
import { readFileSync } from 'node:fs';
import nock from 'nock';
import path from 'node:path';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { operation } from '../../../../nodes/CandidateVerification/actions/profile/create.operation';
import * as say from '../../../../nodes/CandidateVerification/engine/messages';
import { operation as profileCreateOperation } from '../../../../nodes/CandidateVerification/actions/profile/create.operation';
import { DeduplicationStore } from '../../../harness/deduplication-store';
import { failRequest } from '../../../harness/fail-request';
import { outputJson, runActionNode } from '../../../harness/run-node';
import { enableMockedNetwork, mockService, success } from '../../../harness/service-mock';

/**
 * Profile → Create against a service that follows the API contract (date of birth and father's
 * name nested in `verificationFields`) and one that follows the provider's current page (top level,
 * `dob` required, `verificationFields` refused). The shape a credential's service takes is learned
 * once per process: each test uses a credential of its own.
 */
const PATH = '/verification/api/1.0/ekyc-forms/form-1/diy-candidate';

const parameters: INodeParameters = {
	resource: 'profile',
	operation: 'create',
	formId: 'form-1',
	name: '={{ $json.name }}',
	gender: '={{ $json.gender }}',
	additionalFields: {
		dob: '={{ $json.dob }}',
		fatherName: '={{ $json.fatherName }}',
		mobile: '={{ $json.mobile }}',
	},
};

const asha = { name: 'Asha Verma', gender: 'Female', dob: '17-05-1994', fatherName: 'Raj Verma' };
const ravi = { name: 'Ravi Kumar', gender: 'Male', dob: '1990-01-02' };
const meera = { name: 'Meera Iyer', gender: 'Female', dob: '03-03-1988' };

const nested = (candidate: IDataObject, verificationFields: IDataObject) => ({
	...candidate,
	verificationFields,
});

const refusal = (message: string) => ({ code: -1, message });

type Answer = [number, object];

/** A service that follows the provider's current page, strictly (as the sandbox's `current` mode). */
function currentPageAnswer(body: IDataObject): Answer {
	const problems: string[] = [];
	if ('verificationFields' in body) problems.push('property verificationFields should not exist');
	if (typeof body.dob !== 'string') problems.push('dob must be a string');
	if (body.name === 'Taken') problems.push('mobile is already registered');
	if (problems.length > 0) return [400, refusal(problems.join('/'))];
	return [200, success({ transactionId: `TXN-${String(body.name)}` })];
}

/** A service that follows the contract, strictly: top-level dob and fatherName are refused. */
function contractAnswer(body: IDataObject): Answer {
	const unknown = ['dob', 'fatherName'].filter((field) => field in body);
	if (unknown.length > 0) {
		return [400, refusal(unknown.map((field) => `property ${field} should not exist`).join('/'))];
	}
	return [200, success({ transactionId: `TXN-${String(body.name)}` })];
}

function service(answer: (body: IDataObject) => Answer) {
	const { scope, requests } = mockService();
	scope
		.post(PATH)
		.times(100)
		.reply((_uri, body) => answer(body as IDataObject));
	return requests;
}

const bodies = (requests: Array<{ body: unknown }>) => requests.map((request) => request.body);

describe('Profile → Create against both shapes of the service', () => {
	enableMockedNetwork();

	it('a contract service: the date of birth nested in verificationFields, one request a row', async () => {
		const requests = service(contractAnswer);

		const result = await runActionNode({
			items: [asha, ravi],
			parameters,
			credentialId: 'cred-contract',
		});

		expect(result.error).toBeUndefined();
		expect(bodies(requests)).toEqual([
			nested(
				{ name: 'Asha Verma', gender: 'Female' },
				{ dob: '17-05-1994', fatherName: 'Raj Verma' },
			),
			nested({ name: 'Ravi Kumar', gender: 'Male' }, { dob: '02-01-1990' }),
		]);
		expect(outputJson(result).map((json) => json.transactionId)).toEqual([
			'TXN-Asha Verma',
			'TXN-Ravi Kumar',
		]);
	});

	it('a current-page service: the first refusal of the nested shape teaches the top-level shape, once for the credential', async () => {
		const requests = service(currentPageAnswer);

		const first = await runActionNode({
			items: [asha, ravi, meera],
			parameters,
			credentialId: 'cred-current',
		});

		expect(first.error).toBeUndefined();
		expect(bodies(requests)).toEqual([
			nested(
				{ name: 'Asha Verma', gender: 'Female' },
				{ dob: '17-05-1994', fatherName: 'Raj Verma' },
			),
			{ name: 'Asha Verma', gender: 'Female', dob: '17-05-1994', fatherName: 'Raj Verma' },
			{ name: 'Ravi Kumar', gender: 'Male', dob: '02-01-1990' },
			{ name: 'Meera Iyer', gender: 'Female', dob: '03-03-1988' },
		]);
		expect(outputJson(first)).toEqual([
			{ transactionId: 'TXN-Asha Verma', formId: 'form-1', name: 'Asha Verma' },
			{ transactionId: 'TXN-Ravi Kumar', formId: 'form-1', name: 'Ravi Kumar' },
			{ transactionId: 'TXN-Meera Iyer', formId: 'form-1', name: 'Meera Iyer' },
		]);

		// A later execution with the same credential sends the learned shape at once.
		requests.length = 0;
		const later = await runActionNode({
			items: [{ name: 'Kiran Rao', gender: 'Other', dob: '1999-12-31' }],
			parameters,
			credentialId: 'cred-current',
		});
		expect(later.error).toBeUndefined();
		expect(bodies(requests)).toEqual([{ name: 'Kiran Rao', gender: 'Other', dob: '31-12-1999' }]);
	});

	it('a contract service after a credential learned the top-level shape elsewhere: learned again, each row created once', async () => {
		const current = service(currentPageAnswer);
		await runActionNode({ items: [ravi], parameters, credentialId: 'cred-moved' });
		expect(bodies(current)).toHaveLength(2);
		nock.cleanAll();

		const contract = service(contractAnswer);
		const result = await runActionNode({
			items: [meera, asha],
			parameters: { ...parameters, requestOptions: { maxConcurrentRequests: 1 } },
			credentialId: 'cred-moved',
		});

		expect(result.error).toBeUndefined();
		expect(bodies(contract)).toEqual([
			{ name: 'Meera Iyer', gender: 'Female', dob: '03-03-1988' },
			nested({ name: 'Meera Iyer', gender: 'Female' }, { dob: '03-03-1988' }),
			nested(
				{ name: 'Asha Verma', gender: 'Female' },
				{ dob: '17-05-1994', fatherName: 'Raj Verma' },
			),
		]);
	});

	it('a row without a Date of Birth against a service that requires it: an error naming Date of Birth, not in doubt, sent once', async () => {
		const requests = service(currentPageAnswer);

		const result = await runActionNode({
			items: [{ name: 'Ravi Kumar', gender: 'Male' }],
			parameters,
			credentialId: 'cred-no-dob',
			continueOnFail: true,
		});

		expect(bodies(requests)).toEqual([{ name: 'Ravi Kumar', gender: 'Male' }]);
		const [json] = outputJson(result);
		expect(json.error).toBe(
			`${profileCreateOperation.label} was rejected by the Candidate Verification Service: Date of Birth is required by the service`,
		);
		expect(json.inDoubt).toBeUndefined();
	});

	it('the same under On Error → Stop: the run stops with that error', async () => {
		service(currentPageAnswer);

		const result = await runActionNode({
			items: [{ name: 'Ravi Kumar', gender: 'Male' }],
			parameters,
			credentialId: 'cred-no-dob-stop',
		});

		expect(result.error?.message).toBe(
			`${profileCreateOperation.label} was rejected by the Candidate Verification Service: Date of Birth is required by the service`,
		);
		const explained = operation.explainRefusal!(['dob must be a string'], { body: {} }, 0)!;
		expect(result.error?.description).toBe(
			['- dob must be a string', '(HTTP 400, code -1)', explained.advice].join('\n'),
		);
		expect(explained.advice).toContain('give item 0 a Date of Birth');
	});

	it('a lost answer is never followed by the other shape: the row is in doubt, one request', async () => {
		const requests = service(currentPageAnswer);
		const spy = failRequest(1, { code: 'ECONNRESET', message: 'socket hang up' });
		try {
			const result = await runActionNode({
				items: [asha],
				parameters,
				credentialId: 'cred-lost',
				continueOnFail: true,
			});
			expect(spy).toHaveBeenCalledTimes(1);
			expect(requests).toHaveLength(0);
			expect(outputJson(result)[0].inDoubt).toBe(true);
		} finally {
			spy.mockRestore();
		}
	});

	it('a refusal that is not about the shape is not followed by the other shape', async () => {
		const { scope, requests } = mockService();
		scope.post(PATH).reply(400, refusal('mobile is already registered'));

		const result = await runActionNode({
			items: [asha],
			parameters,
			credentialId: 'cred-other-refusal',
			continueOnFail: true,
		});

		expect(requests).toHaveLength(1);
		expect(outputJson(result)[0].error).toBe(
			`${profileCreateOperation.label} was rejected by the Candidate Verification Service: mobile is already registered`,
		);
	});

	it('both shapes refused: the error is the refusal that is not about the shape', async () => {
		const requests = service(currentPageAnswer);

		const result = await runActionNode({
			items: [{ ...asha, name: 'Taken' }],
			parameters,
			credentialId: 'cred-both-refused',
			continueOnFail: true,
		});

		expect(bodies(requests)).toEqual([
			nested({ name: 'Taken', gender: 'Female' }, { dob: '17-05-1994', fatherName: 'Raj Verma' }),
			{ name: 'Taken', gender: 'Female', dob: '17-05-1994', fatherName: 'Raj Verma' },
		]);
		expect(outputJson(result)[0].error).toBe(
			`${profileCreateOperation.label} was rejected by the Candidate Verification Service: mobile is already registered`,
		);
	});

	it('a service that ignores unknown keys and refuses one father’s name: every candidate it creates holds its dob and fatherName, the refused row fails with its reason', async () => {
		// The contract's shape, read leniently (top-level keys ignored), with a rule on the father's name.
		const created: IDataObject[] = [];
		const requests = service((body) => {
			const fields = (body.verificationFields ?? {}) as IDataObject;
			if (fields.fatherName !== undefined && !/^[A-Za-z .]+$/.test(String(fields.fatherName))) {
				return [200, refusal('verificationFields.fatherName must contain only letters')];
			}
			created.push({ name: body.name, dob: fields.dob, fatherName: fields.fatherName });
			return [200, success({ transactionId: `TXN-${String(body.name)}` })];
		});
		const kiran = { name: 'Kiran Rao', gender: 'Male', dob: '1991-04-05', fatherName: 'R@j Rao' };
		const meeraWithFather = { ...meera, fatherName: 'Suresh Iyer' };

		const result = await runActionNode({
			items: [kiran, asha, meeraWithFather],
			parameters,
			credentialId: 'cred-lenient',
			continueOnFail: true,
		});

		expect(created).toEqual([
			{ name: 'Asha Verma', dob: '17-05-1994', fatherName: 'Raj Verma' },
			{ name: 'Meera Iyer', dob: '03-03-1988', fatherName: 'Suresh Iyer' },
		]);
		expect(bodies(requests).every((body) => 'verificationFields' in (body as IDataObject))).toBe(
			true,
		);
		const [refused, ...accepted] = outputJson(result);
		expect(refused.error).toBe(
			`${profileCreateOperation.label} was rejected by the Candidate Verification Service: verificationFields.fatherName must contain only letters`,
		);
		expect(refused.inDoubt).toBeUndefined();
		expect(accepted.map((json) => json.transactionId)).toEqual([
			'TXN-Asha Verma',
			'TXN-Meera Iyer',
		]);
	});

	it.each([
		'verificationFields.fatherName must contain only letters',
		'verificationFields.dob must be a string',
		'"verificationFields.dob" is required',
		'verificationFields.dob must be a valid date in DD-MM-YYYY format/mobile is already registered',
		'fatherName must contain only letters',
		'dob must be a valid date in DD-MM-YYYY format',
	])(
		'a refusal that names no rejected shape (%s) is not followed by the other shape',
		async (message) => {
			const { scope, requests } = mockService();
			scope.post(PATH).reply(200, refusal(message));

			const result = await runActionNode({
				items: [asha],
				parameters,
				credentialId: `cred-value-${message}`,
				continueOnFail: true,
			});

			expect(requests).toHaveLength(1);
			expect(outputJson(result)[0].error).toMatch(
				`${profileCreateOperation.label} was rejected by the Candidate Verification Service: ${message.split('/')[0]}`,
			);
		},
	);

	it.each([
		'property verificationFields should not exist',
		'"verificationFields" is not allowed',
		'dob must be a string',
		'"dob" is required',
		'dob should not be empty',
	])(
		'a refusal of the nested shape itself (%s) is followed by the top-level shape',
		async (message) => {
			const { scope, requests } = mockService();
			scope.post(PATH).reply(200, refusal(message));
			scope.post(PATH).reply(200, success({ transactionId: 'TXN-1' }));

			const result = await runActionNode({
				items: [asha],
				parameters,
				credentialId: `cred-shape-${message}`,
			});

			expect(result.error).toBeUndefined();
			expect(bodies(requests)).toEqual([
				nested(
					{ name: 'Asha Verma', gender: 'Female' },
					{ dob: '17-05-1994', fatherName: 'Raj Verma' },
				),
				{ name: 'Asha Verma', gender: 'Female', dob: '17-05-1994', fatherName: 'Raj Verma' },
			]);
		},
	);

	it('after the top-level shape was learned, a refused father’s name value keeps it: one request, the service’s reason', async () => {
		service(currentPageAnswer);
		await runActionNode({ items: [ravi], parameters, credentialId: 'cred-learned-value' });
		nock.cleanAll();
		const requests = service((body) =>
			body.fatherName === 'R@j Rao'
				? [200, refusal('fatherName must contain only letters')]
				: currentPageAnswer(body),
		);

		const result = await runActionNode({
			items: [{ ...asha, fatherName: 'R@j Rao' }, meera],
			parameters: { ...parameters, requestOptions: { maxConcurrentRequests: 1 } },
			credentialId: 'cred-learned-value',
			continueOnFail: true,
		});

		expect(bodies(requests)).toEqual([
			{ name: 'Asha Verma', gender: 'Female', dob: '17-05-1994', fatherName: 'R@j Rao' },
			{ name: 'Meera Iyer', gender: 'Female', dob: '03-03-1988' },
		]);
		expect(outputJson(result).map((json) => json.error ?? json.transactionId)).toEqual([
			`${profileCreateOperation.label} was rejected by the Candidate Verification Service: fatherName must contain only letters`,
			'TXN-Meera Iyer',
		]);
	});

	it('the other shape refused too for a reason naming its fields: the error gives both refusals', async () => {
		const requests = service((body) =>
			'verificationFields' in body
				? currentPageAnswer(body)
				: [200, refusal('fatherName must contain only letters')],
		);

		const result = await runActionNode({
			items: [asha],
			parameters,
			credentialId: 'cred-both-named',
		});

		expect(requests).toHaveLength(2);
		// Both refusals, whatever the wording around them.
		for (const problem of [
			'fatherName must contain only letters',
			'property verificationFields should not exist',
		])
			expect(result.error?.description).toContain(`- ${problem}`);
		const { labels } = operation.otherShape!;
		const explained = say.bothShapesRefused(
			['fatherName must contain only letters'],
			{
				firstShape: labels.declared,
				firstProblems: ['property verificationFields should not exist', 'dob must be a string'],
				secondShape: labels.other,
			},
			0,
		);
		expect(result.error?.message).toBe(
			`${profileCreateOperation.label} was rejected by the Candidate Verification Service: ${explained.problem}`,
		);
		expect(result.error?.description).toBe(
			['- fatherName must contain only letters', '(HTTP 200, code -1)', explained.advice].join(
				'\n',
			),
		);
		expect(explained.advice).toContain('- property verificationFields should not exist');
	});

	it('a refusal under a 502 (the service may have acted) is not followed by the other shape', async () => {
		const { scope, requests } = mockService();
		scope.post(PATH).reply(502, refusal('dob must be a string'));

		const result = await runActionNode({
			items: [asha],
			parameters,
			credentialId: 'cred-502',
			continueOnFail: true,
		});

		expect(requests).toHaveLength(1);
		expect(outputJson(result)[0].inDoubt).toBe(true);
	});

	it('a row recorded by 0.4.0 (commit 4e03cfc) is still alreadySent against a current-page service: nothing is sent', async () => {
		const fixture = JSON.parse(
			readFileSync(path.join(__dirname, '../../../fixtures/profile-record-4e03cfc.json'), 'utf8'),
		) as {
			items: IDataObject[];
			parameters: INodeParameters;
			rows: Array<[string, string[]]>;
			staticData: IDataObject;
		};
		const requests = service(currentPageAnswer);

		for (const typeVersion of [1, 2]) {
			const store = new DeduplicationStore();
			for (const [scope, values] of fixture.rows) store.rows.set(scope, [...values]);
			const result = await runActionNode({
				items: fixture.items,
				parameters: fixture.parameters,
				deduplicationStore: store,
				staticData: structuredClone(fixture.staticData),
				typeVersion,
				credentialId: `cred-v${typeVersion}`,
			});
			expect(result.error).toBeUndefined();
			expect(outputJson(result).map((json) => [json.transactionId, json.alreadySent])).toEqual([
				['TXN-Asha Verma', true],
				['TXN-Ravi Kumar', true],
			]);
		}
		expect(requests).toHaveLength(0);
	});

	it('a row created through the top-level shape is alreadySent in the next execution (its identity does not depend on the shape)', async () => {
		const requests = service(currentPageAnswer);
		const store = new DeduplicationStore();
		const options = {
			items: [asha],
			parameters,
			deduplicationStore: store,
			credentialId: 'cred-id',
		};

		await runActionNode(options);
		expect(requests).toHaveLength(2);
		const again = await runActionNode(options);

		expect(requests).toHaveLength(2);
		expect(outputJson(again)[0]).toMatchObject({
			transactionId: 'TXN-Asha Verma',
			alreadySent: true,
		});
	});
});
