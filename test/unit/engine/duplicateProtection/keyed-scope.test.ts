/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code run by jest, never published: it reads its fixtures */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { MODE_NAMES } from '../../../../nodes/CandidateVerification/engine/duplicateProtection/fields';
import * as former from '../../../../nodes/CandidateVerification/engine/duplicateProtection/migration';
import * as say from '../../../../nodes/CandidateVerification/engine/duplicateProtection/messages';
import { ACTIONS } from '../../../../nodes/shared/actions';
import { operation as profileCreateOperation } from '../../../../nodes/CandidateVerification/actions/profile/create.operation';
import { DeduplicationStore } from '../../../harness/deduplication-store';
import { outputJson, runActionNode, type RunOptions } from '../../../harness/run-node';
import { enableMockedNetwork, mockService, success } from '../../../harness/service-mock';

/**
 * A Duplicate Key tells rows apart within the operation's scope (the form; the transaction and
 * check; the question), never across: the same employee on a second form, or a second check for
 * them, is a row of its own. Rows keyed before 0.5.0 (whose key alone was the identity, whatever
 * the form or check) are held in doubt, naming the ID the node kept, until a person records them.
 */
enableMockedNetwork();

const V = '/verification/api/1.0';
const candidatePath = (formId: string) => `${V}/ekyc-forms/${formId}/diy-candidate`;
const SUBMIT_PATH = `${V}/bgv/diy`;
const INSUFFICIENCY_PATH = `${V}/bgv/insufficiency`;

const profile = (formId: string): INodeParameters => ({
	resource: 'profile',
	operation: 'create',
	formId,
	name: '={{ $json.name }}',
	gender: 'Female',
	additionalFields: { dob: '17-05-1994' },
	duplicateKey: '={{ $json.employeeId }}',
});
const asha = { name: 'Asha Verma', employeeId: 'EMP-1' };

/** The service accepts candidates on `formId`, each with a transaction ID of its name. */
function acceptingCandidates(formId: string, times = 5) {
	const { scope, requests } = mockService();
	scope
		.post(candidatePath(formId))
		.times(times)
		.reply(200, (_uri, body) => success({ transactionId: `TXN-${(body as IDataObject).name}` }));
	return requests;
}

/** Get Status: each transaction `TXN-<name>` is on `formId` (the contract's shape), as often as asked. */
function transactionsOn(formId: string, times = 5) {
	const { scope, requests } = mockService();
	scope
		.get(`${V}/transactions/info`)
		.query(true)
		.times(times)
		.reply(200, (uri) => {
			const txnId = new URL(uri, 'https://cv.test').searchParams.get('txnId');
			return success({ transactionId: txnId, formId, verificationList: [] });
		});
	return requests;
}

interface KeyedFixture {
	profile: INodeParameters;
	items: IDataObject[];
	rows: Array<[string, string[]]>;
	staticData: IDataObject;
}

/** A fixture, its Profile → Create with a Date of Birth (required on version 2; a key's identity has none). */
function fixture(name: string): KeyedFixture {
	const read = JSON.parse(
		readFileSync(path.join(__dirname, '../../../fixtures', name), 'utf8'),
	) as KeyedFixture;
	return { ...read, profile: { ...read.profile, additionalFields: { dob: '17-05-1994' } } };
}

/** A workflow whose record was written by 0.4.0 (commit 4e03cfc): its store and static data. */
function recordOf({ rows, staticData }: KeyedFixture) {
	const store = new DeduplicationStore();
	for (const [scope, values] of rows) store.rows.set(scope, [...values]);
	return { deduplicationStore: store, staticData: structuredClone(staticData) };
}

describe('A Duplicate Key counts within the scope', () => {
	it('Profile → Create: the same key on a second form is a new row, sent; on the same form it is alreadySent', async () => {
		const store = new DeduplicationStore();
		const run = (formId: string) =>
			runActionNode({
				items: [asha],
				parameters: profile(formId),
				deduplicationStore: store,
				typeVersion: 2,
			});
		const form1 = acceptingCandidates('form-1');
		const form2 = acceptingCandidates('form-2');

		await run('form-1');
		const second = await run('form-2');
		const again = await run('form-2');

		expect([form1.length, form2.length]).toEqual([1, 1]);
		expect(outputJson(second)).toEqual([
			{ transactionId: 'TXN-Asha Verma', formId: 'form-2', name: 'Asha Verma' },
		]);
		expect(outputJson(again)[0]).toMatchObject({ formId: 'form-2', alreadySent: true });
	});

	it('Submit: the same key on a second check of the transaction is sent', async () => {
		const { scope, requests } = mockService();
		scope.post(SUBMIT_PATH).times(2).reply(200, success());
		const store = new DeduplicationStore();
		const submit = (verificationName: string): INodeParameters => ({
			resource: 'verification',
			operation: 'submit',
			transactionId: 'TXN-1',
			verificationName,
			duplicateKey: 'EMP-1',
			data: '{"linkedinUrl":"https://www.linkedin.com/in/asha"}',
		});

		const first = await runActionNode({
			parameters: submit('bgv-social-media'),
			deduplicationStore: store,
			typeVersion: 2,
		});
		const second = await runActionNode({
			parameters: submit('bgv-global-database-check'),
			deduplicationStore: store,
			typeVersion: 2,
		});

		expect(first.error).toBeUndefined();
		expect(second.error).toBeUndefined();
		expect(requests.map(({ body }) => (body as IDataObject).verificationName)).toEqual([
			'bgv-social-media',
			'bgv-global-database-check',
		]);
	});

	it('Resolve Insufficiency: the same key on another question is sent', async () => {
		const { scope, requests } = mockService();
		scope.post(INSUFFICIENCY_PATH).times(2).reply(200, success());
		const store = new DeduplicationStore();
		const resolve = (insufficiencyId: string): INodeParameters => ({
			resource: 'verification',
			operation: 'resolveInsufficiency',
			transactionId: 'TXN-1',
			verificationId: 'bgv-employment',
			answers: { answer: [{ insufficiencyId, value: 'Acme Ltd' }] },
			duplicateKey: 'EMP-1',
		});

		const first = await runActionNode({
			parameters: resolve('ins-1'),
			deduplicationStore: store,
			typeVersion: 2,
		});
		const second = await runActionNode({
			parameters: resolve('ins-2'),
			deduplicationStore: store,
			typeVersion: 2,
		});

		expect([first.error?.message, second.error?.message]).toEqual([undefined, undefined]);
		expect(requests).toHaveLength(2);
	});
});

describe('Rows keyed before 0.5.0 (a record written by commit 4e03cfc)', () => {
	const keyed = fixture('keyed-record-4e03cfc.json');

	it.each([1, 2])(
		'version %i: a keyed row is held in doubt, naming the ID kept for its key; nothing is sent',
		async (typeVersion) => {
			const requests = acceptingCandidates('form-1');
			const result = await runActionNode({
				items: keyed.items,
				parameters: keyed.profile,
				typeVersion,
				credentialId: `cred-v${typeVersion}`,
				continueOnFail: true,
				...recordOf(keyed),
			});

			expect(requests).toHaveLength(0);
			const texts = keyed.items.map(({ name, employeeId }, itemIndex) =>
				former.keyedBefore({
					label: profileCreateOperation.label,
					itemIndex,
					key: String(employeeId),
					field: 'transactionId',
					keptId: `TXN-${String(name)}`,
					where: say.whereToCheck([undefined]),
					stops: false,
					how: { kind: 'confirmed', what: 'form', readLabel: ACTIONS.transactionGetStatus },
				}),
			);
			expect(outputJson(result)).toEqual(
				texts.map(({ message, description }) => ({
					error: message,
					description,
					inDoubt: true,
				})),
			);
		},
	);

	it('one manual run of Record Rows as Sent with the written-back IDs clears them: the next run outputs alreadySent with those IDs', async () => {
		const requests = acceptingCandidates('form-1');
		const reads = transactionsOn('form-1');
		const record = recordOf(keyed);
		const options: Partial<RunOptions> = {
			items: keyed.items.map((item) => ({ ...item, transactionId: `TXN-${String(item.name)}` })),
			typeVersion: 2,
			credentialId: 'cred-v2',
			...record,
		};
		const recorded = await runActionNode({
			...options,
			parameters: {
				...keyed.profile,
				duplicateProtection: 'recordAsSent',
				idFoundAtService: '={{ $json.transactionId }}',
			},
		});
		const next = await runActionNode({ ...options, parameters: keyed.profile });

		expect([recorded.error?.message, next.error?.message]).toEqual([undefined, undefined]);
		expect(requests).toHaveLength(0);
		expect(reads).toHaveLength(2);
		expect(outputJson(recorded).map(({ recordedAsSent }) => recordedAsSent)).toEqual([true, true]);
		expect(
			outputJson(next).map(({ transactionId, alreadySent }) => [transactionId, alreadySent]),
		).toEqual([
			['TXN-Asha Verma', true],
			['TXN-Ravi Kumar', true],
		]);
	});

	it('the same key on another form is held in doubt too (the record cannot tell the form); Send These Rows Again sends it once', async () => {
		const requests = acceptingCandidates('form-2');
		const record = recordOf(keyed);
		const options = {
			items: [keyed.items[0]],
			typeVersion: 2,
			credentialId: 'cred-v2',
			continueOnFail: true,
			...record,
		};
		const held = await runActionNode({
			...options,
			parameters: { ...keyed.profile, formId: 'form-2' },
		});
		const sent = await runActionNode({
			...options,
			parameters: { ...keyed.profile, formId: 'form-2', duplicateProtection: 'sendAgain' },
		});
		const next = await runActionNode({
			...options,
			parameters: { ...keyed.profile, formId: 'form-2' },
		});

		expect(outputJson(held)[0]).toMatchObject({ inDoubt: true });
		expect(requests).toHaveLength(1);
		expect(outputJson(sent)[0]).toEqual({
			transactionId: 'TXN-Asha Verma',
			formId: 'form-2',
			name: 'Asha Verma',
		});
		expect(outputJson(next)[0]).toMatchObject({
			alreadySent: true,
			transactionId: 'TXN-Asha Verma',
		});
	});

	it('rows without a key keep their identity: a keyless row of a keyed record’s workflow is new', async () => {
		const requests = acceptingCandidates('form-1');
		const result = await runActionNode({
			items: [{ name: 'Meera Iyer' }],
			parameters: { ...keyed.profile, duplicateKey: '' },
			typeVersion: 2,
			credentialId: 'cred-v2',
			...recordOf(keyed),
		});
		expect(result.error).toBeUndefined();
		expect(requests).toHaveLength(1);
	});

	it('1,000 keyed rows: the first re-run names each in doubt and sends none; one Record Rows as Sent run clears all', async () => {
		const big = fixture('keyed-record-4e03cfc-1000.json');
		const items = Array.from({ length: 1000 }, (_, index) => ({
			name: `Candidate ${index}`,
			employeeId: `EMP-${index}`,
			transactionId: `TXN-Candidate ${index}`,
		}));
		const requests = acceptingCandidates('form-1', 1000);
		const reads = transactionsOn('form-1', 1000);
		const options = { items, typeVersion: 2, credentialId: 'cred-1000', ...recordOf(big) };

		const held = await runActionNode({ ...options, parameters: big.profile, continueOnFail: true });
		const recorded = await runActionNode({
			...options,
			parameters: {
				...big.profile,
				duplicateProtection: 'recordAsSent',
				idFoundAtService: '={{ $json.transactionId }}',
			},
		});
		const next = await runActionNode({ ...options, parameters: big.profile });

		expect(requests).toHaveLength(0);
		expect(reads).toHaveLength(1000);
		expect(outputJson(held).filter(({ inDoubt }) => inDoubt)).toHaveLength(1000);
		expect(outputJson(recorded).filter(({ recordedAsSent }) => recordedAsSent)).toHaveLength(1000);
		const ids = outputJson(next).map(({ transactionId, alreadySent }) => [
			transactionId,
			alreadySent,
		]);
		expect(ids).toEqual(items.map(({ transactionId }) => [transactionId, true]));
	});

	it(`says how to switch back (${MODE_NAMES.skipSent}) in its advice`, () => {
		const { description } = former.keyedBefore({
			label: 'x',
			itemIndex: 0,
			key: 'k',
			field: 'transactionId',
			where: 'w',
			stops: false,
			how: { kind: 'person' },
		});
		expect(description).toContain(say.SWITCH_BACK);
	});
});
